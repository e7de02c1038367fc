# Strided 'same' averages: the divisor counts real elements only, on uneven pads.
model = keras.Sequential([
    keras.Input(shape=(15, 16, 4)),
    layers.AveragePooling2D(3, strides=2, padding="same"),
    layers.Conv2D(4, 3, padding="same"),
    layers.AveragePooling2D((2, 3), strides=(2, 2), padding="same"),
])
