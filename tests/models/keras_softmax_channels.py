model = keras.Sequential([
    keras.Input(shape=(9, 9, 2)),
    layers.Conv2D(5, 1),
    layers.Softmax(),
    layers.MaxPooling2D(2, strides=1, padding="same"),
])
