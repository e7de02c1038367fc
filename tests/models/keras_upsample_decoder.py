model = keras.Sequential([
    keras.Input(shape=(7, 7, 8)),
    layers.UpSampling2D(size=(2, 2)),
    layers.Conv2D(8, 3, padding="same", activation="relu"),
    layers.UpSampling2D(size=(2, 1)),
    layers.Conv2D(1, 3, padding="same", activation="sigmoid"),
])
