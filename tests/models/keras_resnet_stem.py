import keras
from keras import layers

model = keras.Sequential([
    layers.Conv2D(64, 7, strides=2, padding="same", use_bias=False, input_shape=(224, 224, 3)),
    layers.BatchNormalization(),
    layers.ReLU(),
    layers.MaxPooling2D(3, strides=2, padding="same"),
    layers.GlobalAveragePooling2D(),
    layers.Dense(10),
])
