model = keras.Sequential([
    keras.Input(shape=(10, 12, 3)),
    layers.ZeroPadding2D(((1, 2), (0, 3))),
    layers.Cropping2D(((1, 0), (2, 1))),
    layers.Conv2D(5, 3),
    layers.UpSampling2D(2),
    layers.ZeroPadding2D(1),
    layers.Conv2D(2, (2, 3), padding="same"),
])
