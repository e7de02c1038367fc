# padlab-model: Discriminator()
# pix2pix PatchGAN discriminator: two image inputs concatenated on channels, three strided
# downsample blocks, ZeroPadding2D + a valid 4x4 Conv2D(512), BatchNorm, LeakyReLU, ZeroPadding2D
# and a valid 4x4 Conv2D(1) giving a 14x14 map of patch scores; several inputs.
# Style: the TensorFlow tutorial "pix2pix" (Discriminator with tf.keras.layers.concatenate), for
# 128x128 images.
import tensorflow as tf

IMG_SIZE = 128


def downsample(filters, size, apply_batchnorm=True):
  initializer = tf.random_normal_initializer(0., 0.02)
  block = tf.keras.Sequential()
  block.add(tf.keras.layers.Conv2D(filters, size, strides=2, padding='same',
                                   kernel_initializer=initializer, use_bias=False))
  if apply_batchnorm:
    block.add(tf.keras.layers.BatchNormalization())
  block.add(tf.keras.layers.LeakyReLU())
  return block


def Discriminator():
  initializer = tf.random_normal_initializer(0., 0.02)

  # the condition (input photo) and the image to judge (real target or generated)
  inp = tf.keras.layers.Input(shape=[IMG_SIZE, IMG_SIZE, 3], name='input_image')
  tar = tf.keras.layers.Input(shape=[IMG_SIZE, IMG_SIZE, 3], name='target_image')
  x = tf.keras.layers.concatenate([inp, tar])          # 128x128x6

  x = downsample(64, 4, False)(x)                      # 64x64
  x = downsample(128, 4)(x)                            # 32x32
  x = downsample(256, 4)(x)                            # 16x16

  x = tf.keras.layers.ZeroPadding2D()(x)               # 18x18
  x = tf.keras.layers.Conv2D(512, 4, strides=1, kernel_initializer=initializer,
                             use_bias=False)(x)        # 15x15
  x = tf.keras.layers.BatchNormalization()(x)
  x = tf.keras.layers.LeakyReLU()(x)

  x = tf.keras.layers.ZeroPadding2D()(x)               # 17x17
  patch_logits = tf.keras.layers.Conv2D(1, 4, strides=1,
                                        kernel_initializer=initializer)(x)  # 14x14x1

  return tf.keras.Model(inputs=[inp, tar], outputs=patch_logits)


bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)


def discriminator_loss(real_scores, fake_scores):
  return bce(tf.ones_like(real_scores), real_scores) + bce(tf.zeros_like(fake_scores), fake_scores)
