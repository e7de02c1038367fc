# padlab-model: model
# Keyword-spotting CNN on spectrograms: Resizing(32, 32) to downsample, a Normalization layer,
# two valid 3x3 convolutions, 2x2 max pooling, dropout, Flatten, Dense(128), dropout, 8 logits.
# Style: the TensorFlow tutorial "Simple audio recognition" (mini Speech Commands). The input is
# the tutorial's spectrogram shape (124 frames x 129 bins x 1), written out; the Normalization
# gets a fixed mean and variance instead of `adapt` on the dataset.
import os
import pathlib

import numpy as np
import tensorflow as tf

from tensorflow.keras import layers
from tensorflow.keras import models

label_names = ['down', 'go', 'left', 'no', 'right', 'stop', 'up', 'yes']

input_shape = (124, 129, 1)
print('Input shape:', input_shape)
num_labels = len(label_names)

# per-pixel standardisation; fixed statistics stand in for `norm_layer.adapt(spectrograms)`
norm_layer = layers.Normalization(mean=0.25, variance=0.5)

model = models.Sequential([
    layers.Input(shape=input_shape),
    layers.Resizing(32, 32),   # 124x129 spectrogram -> 32x32, cheaper to train
    norm_layer,
    layers.Conv2D(32, 3, activation='relu'),
    layers.Conv2D(64, 3, activation='relu'),
    layers.MaxPooling2D(),
    layers.Dropout(0.25),
    layers.Flatten(),
    layers.Dense(128, activation='relu'),
    layers.Dropout(0.5),
    layers.Dense(num_labels),
])

model.summary()

model.compile(
    optimizer=tf.keras.optimizers.Adam(),
    loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=['accuracy'],
)

EPOCHS = 10
if __name__ == '__main__':
    history = model.fit(
        train_spectrogram_ds,
        validation_data=val_spectrogram_ds,
        epochs=EPOCHS,
        callbacks=tf.keras.callbacks.EarlyStopping(verbose=1, patience=2),
    )
