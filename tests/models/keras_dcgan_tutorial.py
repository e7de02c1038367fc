# padlab-model: make_generator_model()
# DCGAN generator for MNIST: Dense(7*7*256, use_bias=False), BatchNormalization, LeakyReLU,
# Reshape((7, 7, 256)), then three 5x5 Conv2DTranspose (strides 1, 2, 2, 'same', no bias) with
# `assert model.output_shape == ...` checks between them; and a matching discriminator.
# Style: the TensorFlow tutorial "Deep Convolutional Generative Adversarial Network".
import tensorflow as tf
from tensorflow.keras import layers
import matplotlib.pyplot as plt
import numpy as np

NOISE_DIM = 100


def make_generator_model():
    model = tf.keras.Sequential()
    # project the noise vector to a small stack of feature maps
    model.add(layers.Dense(7*7*256, use_bias=False, input_shape=(NOISE_DIM,)))
    model.add(layers.BatchNormalization())
    model.add(layers.LeakyReLU())
    model.add(layers.Reshape((7, 7, 256)))
    assert model.output_shape == (None, 7, 7, 256)  # batch size first

    # fewer channels, same size
    model.add(layers.Conv2DTranspose(128, (5, 5), strides=(1, 1), padding='same', use_bias=False))
    assert model.output_shape == (None, 7, 7, 128)
    model.add(layers.BatchNormalization())
    model.add(layers.LeakyReLU())

    # 7 -> 14
    model.add(layers.Conv2DTranspose(64, (5, 5), strides=(2, 2), padding='same', use_bias=False))
    assert model.output_shape == (None, 14, 14, 64)
    model.add(layers.BatchNormalization())
    model.add(layers.LeakyReLU())

    # 14 -> 28, one channel in [-1, 1]
    model.add(layers.Conv2DTranspose(1, (5, 5), strides=(2, 2), padding='same', use_bias=False,
                                     activation='tanh'))
    assert model.output_shape == (None, 28, 28, 1)
    return model


def make_discriminator_model():
    model = tf.keras.Sequential()
    model.add(layers.Conv2D(64, (5, 5), strides=(2, 2), padding='same', input_shape=[28, 28, 1]))
    model.add(layers.LeakyReLU())
    model.add(layers.Dropout(0.3))
    model.add(layers.Conv2D(128, (5, 5), strides=(2, 2), padding='same'))
    model.add(layers.LeakyReLU())
    model.add(layers.Dropout(0.3))
    model.add(layers.Flatten())
    model.add(layers.Dense(1))
    return model


if __name__ == '__main__':
    generator = make_generator_model()
    fake = generator(tf.random.normal([1, NOISE_DIM]), training=False)
    plt.imshow(fake[0, :, :, 0], cmap='gray')
    print(make_discriminator_model()(fake))
