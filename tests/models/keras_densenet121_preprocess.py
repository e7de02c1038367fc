# padlab-model: model
# A DenseNet121 feature extractor at 128x128 with average pooling, its 'torch' mode
# preprocess_input applied to the symbolic input as plain tensor arithmetic (pixels to [0, 1],
# ImageNet's per-channel mean added negated, its deviation divided), frozen, called with
# training=False; a 10-class head. padlab reads the architecture from its own copy of Keras
# Applications; nothing is downloaded.
# Style: tf.keras transfer-learning answers ("from tensorflow.keras.applications.densenet import").
import tensorflow as tf
from tensorflow.keras.applications.densenet import DenseNet121, preprocess_input

inputs = tf.keras.Input(shape=(128, 128, 3))
x = preprocess_input(inputs)
backbone = DenseNet121(include_top=False, weights="imagenet", input_shape=(128, 128, 3), pooling="avg")
backbone.trainable = False
x = backbone(x, training=False)
x = tf.keras.layers.Dropout(0.3)(x)
outputs = tf.keras.layers.Dense(10, activation="softmax")(x)
model = tf.keras.Model(inputs, outputs)
