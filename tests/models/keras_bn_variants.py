model = keras.Sequential([
    keras.Input(shape=(16, 16, 3)),
    layers.Conv2D(8, 3, padding="same", use_bias=False),
    layers.BatchNormalization(center=False),
    layers.Conv2D(8, 3, padding="same"),
    layers.BatchNormalization(scale=False, momentum=0.9, epsilon=1e-5),
    layers.SpatialDropout2D(0.1),
    layers.BatchNormalization(axis=2),
    layers.GlobalAveragePooling2D(keepdims=True),
    layers.Flatten(),
])
