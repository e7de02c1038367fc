# padlab-model: encoder
# Variational autoencoder on MNIST: a custom Sampling layer (reparameterisation trick written with
# keras.ops in `call`), an encoder with three outputs (z_mean, z_log_var, z) and a decoder
# Dense(7 * 7 * 64) -> Reshape((7, 7, 64)) -> strided Conv2DTranspose; the VAE is a keras.Model
# subclass with its own train_step. Checked here: the encoder (several outputs, a custom layer).
# Style: the keras-io "Variational AutoEncoder" example (Keras 3).
import numpy as np
import tensorflow as tf
import keras
from keras import ops
from keras import layers

latent_dim = 2


class Sampling(layers.Layer):
    """Draws z = mean + sigma * eps from the two encoder heads."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seed_generator = keras.random.SeedGenerator(42)

    def call(self, inputs):
        z_mean, z_log_var = inputs
        eps = keras.random.normal(shape=ops.shape(z_mean), seed=self.seed_generator)
        return z_mean + ops.exp(0.5 * z_log_var) * eps


# 28x28 digit -> 2-D latent distribution and a sample from it
encoder_inputs = keras.Input(shape=(28, 28, 1))
h = layers.Conv2D(32, 3, activation="relu", strides=2, padding="same")(encoder_inputs)
h = layers.Conv2D(64, 3, activation="relu", strides=2, padding="same")(h)
h = layers.Flatten()(h)
h = layers.Dense(16, activation="relu")(h)
z_mean = layers.Dense(latent_dim, name="z_mean")(h)
z_log_var = layers.Dense(latent_dim, name="z_log_var")(h)
z = Sampling()([z_mean, z_log_var])
encoder = keras.Model(encoder_inputs, [z_mean, z_log_var, z], name="encoder")
encoder.summary()

# latent point -> 28x28 probabilities
latent_inputs = keras.Input(shape=(latent_dim,))
h = layers.Dense(7 * 7 * 64, activation="relu")(latent_inputs)
h = layers.Reshape((7, 7, 64))(h)
h = layers.Conv2DTranspose(64, 3, activation="relu", strides=2, padding="same")(h)
h = layers.Conv2DTranspose(32, 3, activation="relu", strides=2, padding="same")(h)
decoder_outputs = layers.Conv2DTranspose(1, 3, activation="sigmoid", padding="same")(h)
decoder = keras.Model(latent_inputs, decoder_outputs, name="decoder")


class VAE(keras.Model):
    def __init__(self, encoder, decoder, **kwargs):
        super().__init__(**kwargs)
        self.encoder = encoder
        self.decoder = decoder
        self.loss_tracker = keras.metrics.Mean(name="loss")

    @property
    def metrics(self):
        return [self.loss_tracker]

    def train_step(self, images):
        with tf.GradientTape() as tape:
            mean, log_var, sample = self.encoder(images)
            rebuilt = self.decoder(sample)
            # per-image reconstruction error summed over pixels, then the KL term
            recon = ops.mean(ops.sum(keras.losses.binary_crossentropy(images, rebuilt), axis=(1, 2)))
            kl = ops.mean(ops.sum(-0.5 * (1 + log_var - ops.square(mean) - ops.exp(log_var)), axis=1))
            loss = recon + kl
        grads = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
        self.loss_tracker.update_state(loss)
        return {"loss": self.loss_tracker.result()}


if __name__ == "__main__":
    (x_train, _), _ = keras.datasets.mnist.load_data()
    digits = np.expand_dims(x_train, -1).astype("float32") / 255
    vae = VAE(encoder, decoder)
    vae.compile(optimizer=keras.optimizers.Adam())
    vae.fit(digits, epochs=30, batch_size=128)
