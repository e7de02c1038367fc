# padlab-input: 500x1
# padlab-model: model
# Fully convolutional time-series classifier: three Conv1D(64, 3, 'same') + BatchNormalization +
# ReLU blocks, global average pooling over time, softmax. The input length is left open
# (shape=(None, 1)); the series used here are 500 steps long.
# Style: the keras-io "Timeseries classification from scratch" example (FordA).
from tensorflow import keras

num_classes = 2


def make_model(input_shape):
    series = keras.layers.Input(input_shape)

    h = series
    for _ in range(3):
        h = keras.layers.Conv1D(filters=64, kernel_size=3, padding="same")(h)
        h = keras.layers.BatchNormalization()(h)
        h = keras.layers.ReLU()(h)

    pooled = keras.layers.GlobalAveragePooling1D()(h)
    probs = keras.layers.Dense(num_classes, activation="softmax")(pooled)
    return keras.models.Model(inputs=series, outputs=probs)


model = make_model(input_shape=(None, 1))   # any length, one reading per step

if __name__ == "__main__":
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["sparse_categorical_accuracy"])
    model.fit(x_train, y_train, batch_size=32, epochs=500, validation_split=0.2,
              callbacks=[keras.callbacks.EarlyStopping(monitor="val_loss", patience=50)])
