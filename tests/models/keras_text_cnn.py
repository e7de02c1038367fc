# padlab-input: 500
# padlab-model: model
# 1-D convnet for binary text classification: an Embedding of integer token ids, two strided
# 'valid' Conv1D(128, 7, strides=3), global max pooling over time, a dense layer and a sigmoid.
# The sequence length is open (shape=(None,)); 500 tokens here, as the vectorizer pads them.
# Style: the keras-io "Text classification from scratch" example (IMDB), Keras 3 imports.
import keras
from keras import layers

# Model constants.
max_features = 20000
embedding_dim = 128
sequence_length = 500

# A integer input for vocab indices.
inputs = keras.Input(shape=(None,), dtype="int64")

# Next, we add a layer to map those vocab indices into a space of dimensionality
# 'embedding_dim'.
x = layers.Embedding(max_features, embedding_dim)(inputs)
x = layers.Dropout(0.5)(x)

# Conv1D + global max pooling
x = layers.Conv1D(128, 7, padding="valid", activation="relu", strides=3)(x)
x = layers.Conv1D(128, 7, padding="valid", activation="relu", strides=3)(x)
x = layers.GlobalMaxPooling1D()(x)

# We add a vanilla hidden layer:
x = layers.Dense(128, activation="relu")(x)
x = layers.Dropout(0.5)(x)

# We project onto a single unit output layer, and squash it with a sigmoid:
predictions = layers.Dense(1, activation="sigmoid", name="predictions")(x)

model = keras.Model(inputs, predictions)

# Compile the model with binary crossentropy loss and an adam optimizer.
model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])

if __name__ == "__main__":
    model.fit(train_ds, validation_data=val_ds, epochs=3)
