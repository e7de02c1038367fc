# padlab-model: model.decoder
# Convolutional VAE for MNIST as a tf.keras.Model subclass holding two tf.keras.Sequential nets
# that start with tf.keras.layers.InputLayer(input_shape=...): the encoder (two strided valid
# 3x3 convolutions, Flatten, Dense(2 * latent)) and the decoder checked here (Dense(7*7*32),
# Reshape(target_shape=(7, 7, 32)), two strided 'same' Conv2DTranspose and a stride-1 one).
# Style: the TensorFlow tutorial "Convolutional Variational Autoencoder".
import numpy as np
import tensorflow as tf


class CVAE(tf.keras.Model):
  """Encoder and decoder of a convolutional VAE; the loss lives outside."""

  def __init__(self, latent_dim):
    super(CVAE, self).__init__()
    self.latent_dim = latent_dim
    # image -> (mean, log-variance) side by side
    self.encoder = tf.keras.Sequential([
        tf.keras.layers.InputLayer(input_shape=(28, 28, 1)),
        tf.keras.layers.Conv2D(filters=32, kernel_size=3, strides=(2, 2), activation='relu'),
        tf.keras.layers.Conv2D(filters=64, kernel_size=3, strides=(2, 2), activation='relu'),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(latent_dim + latent_dim),
    ])
    # latent point -> logits of the 28x28 image
    self.decoder = tf.keras.Sequential([
        tf.keras.layers.InputLayer(input_shape=(latent_dim,)),
        tf.keras.layers.Dense(units=7*7*32, activation=tf.nn.relu),
        tf.keras.layers.Reshape(target_shape=(7, 7, 32)),
        tf.keras.layers.Conv2DTranspose(filters=64, kernel_size=3, strides=2, padding='same',
                                        activation='relu'),
        tf.keras.layers.Conv2DTranspose(filters=32, kernel_size=3, strides=2, padding='same',
                                        activation='relu'),
        tf.keras.layers.Conv2DTranspose(filters=1, kernel_size=3, strides=1, padding='same'),
    ])

  @tf.function
  def sample(self, eps=None):
    if eps is None:
      eps = tf.random.normal(shape=(100, self.latent_dim))
    return tf.sigmoid(self.decoder(eps))

  def encode(self, x):
    return tf.split(self.encoder(x), num_or_size_splits=2, axis=1)

  def reparameterize(self, mean, logvar):
    return tf.random.normal(shape=mean.shape) * tf.exp(0.5 * logvar) + mean


latent_dim = 2  # a plane, to plot the latent space later
model = CVAE(latent_dim)
optimizer = tf.keras.optimizers.Adam(1e-4)
