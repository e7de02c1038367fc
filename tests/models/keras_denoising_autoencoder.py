# padlab-model: autoencoder
# Convolutional denoising autoencoder for 28x28 digits: Conv2D + MaxPooling2D(padding="same")
# twice down to 7x7, then Conv2DTranspose(32, 3, strides=2, padding="same") twice back up and a
# sigmoid Conv2D to one channel.
# Style: the keras-io "Convolutional autoencoder for image denoising" example.
import numpy as np
import matplotlib.pyplot as plt

from keras import layers
from keras.models import Model

input = layers.Input(shape=(28, 28, 1))

# 28 -> 14 -> 7
x = layers.Conv2D(32, (3, 3), activation="relu", padding="same")(input)
x = layers.MaxPooling2D((2, 2), padding="same")(x)
x = layers.Conv2D(32, (3, 3), activation="relu", padding="same")(x)
x = layers.MaxPooling2D((2, 2), padding="same")(x)

# 7 -> 14 -> 28
x = layers.Conv2DTranspose(32, (3, 3), strides=2, activation="relu", padding="same")(x)
x = layers.Conv2DTranspose(32, (3, 3), strides=2, activation="relu", padding="same")(x)
x = layers.Conv2D(1, (3, 3), activation="sigmoid", padding="same")(x)

autoencoder = Model(input, x)
autoencoder.compile(optimizer="adam", loss="binary_crossentropy")
autoencoder.summary()

if __name__ == "__main__":
    # learn to map noisy digits to clean ones
    autoencoder.fit(noisy_train, clean_train, epochs=100, batch_size=128, shuffle=True,
                    validation_data=(noisy_test, clean_test))
