# Seed 003: TF's "padding (1, 1)" with stride 2 is ZeroPadding2D then a valid convolution.
model = keras.Sequential([
    keras.Input(shape=(224, 224, 3)),
    layers.ZeroPadding2D(padding=(1, 1)),
    layers.Conv2D(8, 3, strides=2),
    layers.MaxPooling2D(pool_size=2),
])
