# padlab-input: 500x1
# padlab-model: model
# Fully convolutional time-series classifier: three Conv1D(64, 3, 'same') + BatchNormalization +
# ReLU blocks, global average pooling over time, softmax. The input length is left open
# (shape=(None, 1)); the series used here are 500 steps long.
# Style: the keras-io "Timeseries classification from scratch" example (FordA).
from tensorflow import keras

num_classes = 2


def make_model(input_shape):
    input_layer = keras.layers.Input(input_shape)

    conv1 = keras.layers.Conv1D(filters=64, kernel_size=3, padding="same")(input_layer)
    conv1 = keras.layers.BatchNormalization()(conv1)
    conv1 = keras.layers.ReLU()(conv1)

    conv2 = keras.layers.Conv1D(filters=64, kernel_size=3, padding="same")(conv1)
    conv2 = keras.layers.BatchNormalization()(conv2)
    conv2 = keras.layers.ReLU()(conv2)

    conv3 = keras.layers.Conv1D(filters=64, kernel_size=3, padding="same")(conv2)
    conv3 = keras.layers.BatchNormalization()(conv3)
    conv3 = keras.layers.ReLU()(conv3)

    gap = keras.layers.GlobalAveragePooling1D()(conv3)

    output_layer = keras.layers.Dense(num_classes, activation="softmax")(gap)

    return keras.models.Model(inputs=input_layer, outputs=output_layer)


# any series length, one channel
model = make_model(input_shape=(None, 1))

epochs = 500
batch_size = 32

if __name__ == "__main__":
    callbacks = [
        keras.callbacks.ModelCheckpoint("best_model.keras", save_best_only=True, monitor="val_loss"),
        keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=0.5, patience=20, min_lr=0.0001),
        keras.callbacks.EarlyStopping(monitor="val_loss", patience=50, verbose=1),
    ]
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["sparse_categorical_accuracy"])
    history = model.fit(x_train, y_train, batch_size=batch_size, epochs=epochs,
                        callbacks=callbacks, validation_split=0.2, verbose=1)
