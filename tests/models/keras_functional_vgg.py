from tensorflow import keras
from tensorflow.keras import layers

inputs = keras.Input(shape=(32, 32, 3), name="img")
x = layers.Conv2D(16, 3, activation="relu", padding="same")(inputs)
x = layers.Conv2D(16, 3, activation="relu", padding="same")(x)
x = layers.MaxPooling2D(2)(x)
x = layers.Conv2D(32, 3, activation="relu", padding="same")(x)
x = layers.MaxPooling2D(2)(x)
x = layers.Flatten()(x)
x = layers.Dense(64, activation="relu")(x)
outputs = layers.Dense(10)(x)
model = keras.Model(inputs=inputs, outputs=outputs, name="small_vgg")
