model = keras.Sequential([
    keras.Input(shape=(25, 4)),
    layers.Conv1DTranspose(8, 4, strides=2, padding="same"),
    layers.Conv1DTranspose(4, 3, strides=3, padding="same"),
    layers.Conv1D(2, 4, padding="causal"),
])
