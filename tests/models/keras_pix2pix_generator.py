# padlab-model: Generator()
# pix2pix U-Net generator: a down stack of strided 4x4 Conv2D blocks (BatchNorm, LeakyReLU) and an
# up stack of strided Conv2DTranspose blocks (BatchNorm, Dropout on the first three, ReLU), each
# block a tf.keras.Sequential built by a function with defaults; skips concatenated in reverse,
# a last tanh Conv2DTranspose.
# Style: the TensorFlow tutorial "pix2pix: Image-to-image translation with a conditional GAN",
# for 128x128 images (seven down blocks instead of eight).
import tensorflow as tf

IMG_SIZE = 128
OUTPUT_CHANNELS = 3


def downsample(filters, size, apply_batchnorm=True):
  initializer = tf.random_normal_initializer(0., 0.02)
  block = tf.keras.Sequential()
  # halve the resolution; BN supplies the shift, so no bias
  block.add(tf.keras.layers.Conv2D(filters, size, strides=2, padding='same',
                                   kernel_initializer=initializer, use_bias=False))
  if apply_batchnorm:
    block.add(tf.keras.layers.BatchNormalization())
  block.add(tf.keras.layers.LeakyReLU())
  return block


def upsample(filters, size, apply_dropout=False):
  initializer = tf.random_normal_initializer(0., 0.02)
  block = tf.keras.Sequential()
  # double the resolution
  block.add(tf.keras.layers.Conv2DTranspose(filters, size, strides=2, padding='same',
                                            kernel_initializer=initializer, use_bias=False))
  block.add(tf.keras.layers.BatchNormalization())
  if apply_dropout:
    block.add(tf.keras.layers.Dropout(0.5))
  block.add(tf.keras.layers.ReLU())
  return block


def Generator():
  inputs = tf.keras.layers.Input(shape=[IMG_SIZE, IMG_SIZE, 3])

  # encoder: 128 -> 64 -> 32 -> 16 -> 8 -> 4 -> 2 -> 1
  down_stack = [
    downsample(64, 4, apply_batchnorm=False),
    downsample(128, 4),
    downsample(256, 4),
    downsample(512, 4),
    downsample(512, 4),
    downsample(512, 4),
    downsample(512, 4),
  ]
  # decoder: 1 -> 2 -> 4 -> 8 -> 16 -> 32 -> 64, each output joined to the encoder map of its size
  up_stack = [
    upsample(512, 4, apply_dropout=True),
    upsample(512, 4, apply_dropout=True),
    upsample(512, 4, apply_dropout=True),
    upsample(256, 4),
    upsample(128, 4),
    upsample(64, 4),
  ]

  initializer = tf.random_normal_initializer(0., 0.02)
  last = tf.keras.layers.Conv2DTranspose(OUTPUT_CHANNELS, 4, strides=2, padding='same',
                                         kernel_initializer=initializer,
                                         activation='tanh')  # 64 -> 128

  x = inputs
  skips = []
  for down in down_stack:
    x = down(x)
    skips.append(x)

  # the bottleneck has no partner; the others are used deepest first
  skips = reversed(skips[:-1])

  for up, skip in zip(up_stack, skips):
    x = up(x)
    x = tf.keras.layers.Concatenate()([x, skip])

  x = last(x)
  return tf.keras.Model(inputs=inputs, outputs=x)

