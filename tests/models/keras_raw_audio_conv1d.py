# padlab-model: build_model()
# M5-like 1-D CNN on raw 8 kHz waveforms: a wide strided first convolution (80 taps, stride 4)
# then Conv1D(3) blocks with BatchNormalization, ReLU and MaxPooling1D(4), global average pooling
# over time and a softmax over the 35 Speech Commands words.
# Style: Keras versions of the M5 network (Dai et al.) from audio-classification notebooks.
import tensorflow as tf
from tensorflow.keras import Sequential
from tensorflow.keras.layers import (Conv1D, BatchNormalization, Activation, MaxPooling1D,
                                     GlobalAveragePooling1D, Dense)

SAMPLE_RATE = 8000
N_CLASSES = 35


def build_model(n_channel=32, n_output=N_CLASSES, stride=4):
    model = Sequential(name="m5")
    model.add(Conv1D(n_channel, kernel_size=80, strides=stride, input_shape=(SAMPLE_RATE, 1)))
    model.add(BatchNormalization())
    model.add(Activation("relu"))
    model.add(MaxPooling1D(4))
    for channels in [n_channel, 2 * n_channel, 2 * n_channel]:
        model.add(Conv1D(channels, kernel_size=3))
        model.add(BatchNormalization())
        model.add(Activation("relu"))
        model.add(MaxPooling1D(4))
    model.add(GlobalAveragePooling1D())
    model.add(Dense(n_output, activation="softmax"))
    return model


model = build_model()
model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=0.01, weight_decay=0.0001),
              loss="sparse_categorical_crossentropy", metrics=["accuracy"])
