# padlab-model: model
# Transfer learning as the TensorFlow tutorial writes it: a data-augmentation Sequential
# (RandomFlip, RandomRotation: identities at inference), MobileNetV2's own preprocess_input
# (pixels to [-1, 1], tensor arithmetic on the symbolic input), the Keras Applications
# MobileNetV2 at 160x160 without its top, asked for its ImageNet weights and frozen, called with
# training=False inside a new model; GlobalAveragePooling2D, Dropout(0.2) and one logit follow.
# padlab reads the architecture from its own copy of Keras Applications; nothing is downloaded.
# Style: the TensorFlow tutorial "Transfer learning and fine-tuning" (cats vs dogs).
import numpy as np
import tensorflow as tf

BATCH_SIZE = 32
IMG_SIZE = (160, 160)

data_augmentation = tf.keras.Sequential([
    tf.keras.layers.RandomFlip('horizontal'),
    tf.keras.layers.RandomRotation(0.2),
])

preprocess_input = tf.keras.applications.mobilenet_v2.preprocess_input

IMG_SHAPE = IMG_SIZE + (3,)
base_model = tf.keras.applications.MobileNetV2(input_shape=IMG_SHAPE,
                                               include_top=False,
                                               weights='imagenet')
base_model.trainable = False

global_average_layer = tf.keras.layers.GlobalAveragePooling2D()
prediction_layer = tf.keras.layers.Dense(1)

inputs = tf.keras.Input(shape=(160, 160, 3))
x = data_augmentation(inputs)
x = preprocess_input(x)
x = base_model(x, training=False)
x = global_average_layer(x)
x = tf.keras.layers.Dropout(0.2)(x)
outputs = prediction_layer(x)
model = tf.keras.Model(inputs, outputs)

base_learning_rate = 0.0001
model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=base_learning_rate),
              loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
              metrics=[tf.keras.metrics.BinaryAccuracy(threshold=0, name='accuracy')])

# Fine-tuning: the top of the base unfrozen from layer 100 on.
base_model.trainable = True
fine_tune_at = 100
for layer in base_model.layers[:fine_tune_at]:
    layer.trainable = False
