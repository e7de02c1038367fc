model = keras.Sequential([
    keras.Input(shape=(12, 12, 12, 2)),
    layers.Conv3D(4, 3, padding="same", activation="relu"),
    layers.MaxPooling3D(2),
    layers.Conv3D(6, (3, 3, 3), strides=2, padding="same"),
    layers.AveragePooling3D(2, padding="same"),
    layers.Flatten(),
    layers.Dense(4),
])
