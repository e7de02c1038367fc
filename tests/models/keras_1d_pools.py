model = keras.Sequential([
    keras.Input(shape=(50, 3)),
    layers.Conv1D(8, 5, strides=2, padding="same"),
    layers.MaxPooling1D(3, strides=2, padding="same"),
    layers.AveragePooling1D(2),
    layers.Conv1D(8, 3, padding="valid", activation="tanh"),
    layers.GlobalMaxPooling1D(),
    layers.Dense(3, activation="sigmoid"),
])
