model = keras.Sequential([
    keras.Input(shape=(5, 6, 4, 2)),
    layers.Conv3DTranspose(4, 3, strides=2, padding="same"),
    layers.Conv3D(3, (3, 2, 2), padding="valid"),
    layers.GlobalAveragePooling3D(),
    layers.Dense(2),
])
