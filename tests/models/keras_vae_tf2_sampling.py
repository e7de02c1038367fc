# padlab-model: encoder
# A convolutional VAE encoder for 64x64 RGB images in the TF 2 / Keras 2 style: a Sampling layer
# that takes the batch size and the latent width from `tf.shape(z_mean)` and draws its noise with
# `tf.keras.backend.random_normal(shape=(batch, dim))`, and the last feature map's size read with
# `K.int_shape` for the decoder's Dense and Reshape. Checked here: the encoder (three outputs).
# Style: Keras 2 era VAE examples (keras-io "Variational AutoEncoder" before Keras 3, blog copies).
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from tensorflow.keras import backend as K

latent_dim = 16


class Sampling(layers.Layer):
    """z = z_mean + exp(z_log_var / 2) * epsilon, epsilon shaped like z_mean."""

    def call(self, inputs):
        z_mean, z_log_var = inputs
        batch = tf.shape(z_mean)[0]
        dim = tf.shape(z_mean)[1]
        epsilon = tf.keras.backend.random_normal(shape=(batch, dim))
        return z_mean + tf.exp(0.5 * z_log_var) * epsilon


image = keras.Input(shape=(64, 64, 3), name="image")
x = image
for filters in (32, 64, 128):
    x = layers.Conv2D(filters, 4, strides=2, padding="same")(x)
    x = layers.BatchNormalization()(x)
    x = layers.LeakyReLU(0.2)(x)
feature_shape = K.int_shape(x)
x = layers.Flatten()(x)
x = layers.Dense(256, activation="relu")(x)
z_mean = layers.Dense(latent_dim, name="z_mean")(x)
z_log_var = layers.Dense(latent_dim, name="z_log_var")(x)
z = Sampling(name="z")([z_mean, z_log_var])
encoder = keras.Model(image, [z_mean, z_log_var, z], name="encoder")

code = keras.Input(shape=(latent_dim,), name="code")
y = layers.Dense(feature_shape[1] * feature_shape[2] * feature_shape[3], activation="relu")(code)
y = layers.Reshape((feature_shape[1], feature_shape[2], feature_shape[3]))(y)
for filters in (64, 32):
    y = layers.Conv2DTranspose(filters, 4, strides=2, padding="same", activation="relu")(y)
decoded = layers.Conv2DTranspose(3, 4, strides=2, padding="same", activation="sigmoid")(y)
decoder = keras.Model(code, decoded, name="decoder")

if __name__ == "__main__":
    encoder.summary()
    decoder.summary()
