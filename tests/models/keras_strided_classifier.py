from tensorflow import keras
from tensorflow.keras import layers

model = keras.Sequential(
    [
        keras.Input(shape=(28, 28, 1)),
        layers.Conv2D(32, kernel_size=(3, 3), strides=2, padding="same", activation="relu"),
        layers.Conv2D(64, kernel_size=(3, 3), strides=2, padding="same", activation="relu"),
        layers.MaxPooling2D(pool_size=(2, 2), padding="same"),
        layers.Flatten(),
        layers.Dropout(0.5),
        layers.Dense(10, activation="softmax"),
    ]
)
model.compile(loss="categorical_crossentropy", optimizer="adam")
