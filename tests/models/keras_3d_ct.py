# padlab-model: get_model(width=64, height=64, depth=48)
# 3-D CNN for CT-scan classification: four Conv3D('valid', relu) + MaxPool3D(2) +
# BatchNormalization blocks, GlobalAveragePooling3D, Dense(512), dropout, sigmoid.
# Style: the keras-io "3D image classification from CT scans" example; the check builds it at
# 64x64x48 volumes through the function's parameters (the example's defaults are 128x128x64).
import numpy as np
import tensorflow as tf

import keras
from keras import layers


def get_model(width=128, height=128, depth=64):
    """A volume of width x height x depth voxels, one channel, to P(abnormal)."""
    inputs = keras.Input((width, height, depth, 1))

    x = inputs
    for filters in (64, 64, 128, 256):
        x = layers.Conv3D(filters=filters, kernel_size=3, activation="relu")(x)
        x = layers.MaxPool3D(pool_size=2)(x)
        x = layers.BatchNormalization()(x)

    x = layers.GlobalAveragePooling3D()(x)
    x = layers.Dense(units=512, activation="relu")(x)
    x = layers.Dropout(0.3)(x)
    outputs = layers.Dense(units=1, activation="sigmoid")(x)

    return keras.Model(inputs, outputs, name="3dcnn")


if __name__ == "__main__":
    model = get_model(width=128, height=128, depth=64)
    model.summary()
    schedule = keras.optimizers.schedules.ExponentialDecay(1e-4, decay_steps=100000,
                                                           decay_rate=0.96, staircase=True)
    model.compile(loss="binary_crossentropy", optimizer=keras.optimizers.Adam(schedule),
                  metrics=["acc"])
    model.fit(train_dataset, validation_data=validation_dataset, epochs=100)
