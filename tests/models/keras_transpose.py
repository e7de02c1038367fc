model = keras.Sequential([
    keras.Input(shape=(7, 9, 3)),
    layers.Conv2DTranspose(8, 3, strides=2),                       # 'valid'
    layers.Conv2DTranspose(6, 3, strides=2, padding="same"),       # crops (0, 1): the shift trap
    layers.Conv2DTranspose(4, (3, 2), strides=2, padding="same", output_padding=(1, 1)),
    layers.Conv2DTranspose(2, 5, strides=3, padding="valid", output_padding=2),
])
