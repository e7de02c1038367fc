model = keras.Sequential([
    keras.Input(shape=(19, 17, 3)),
    layers.Conv2D(6, 3, dilation_rate=2, padding="same"),
    layers.Conv2D(6, (3, 2), dilation_rate=(2, 3), padding="valid"),
    layers.Conv2D(4, 3, strides=2, padding="same"),
])
