# padlab-input: 500
# padlab-model: model
# 1-D convnet for binary text classification: an Embedding of integer token ids, two strided
# 'valid' Conv1D(128, 7, strides=3), global max pooling over time, a dense layer and a sigmoid.
# The sequence length is open (shape=(None,)); 500 tokens here, as the vectorizer pads them.
# Style: the keras-io "Text classification from scratch" example (IMDB), Keras 3 imports.
import keras
from keras import layers

vocab_size = 20000      # the TextVectorization layer's max_tokens
embed_dim = 128
sequence_length = 500   # what the vectorizer pads / cuts every review to

inputs = keras.Input(shape=(None,), dtype="int64")   # token ids
x = layers.Embedding(vocab_size, embed_dim)(inputs)
x = layers.Dropout(0.5)(x)

# two strided convolutions over the words, then the strongest response of each filter
x = layers.Conv1D(128, 7, padding="valid", activation="relu", strides=3)(x)
x = layers.Conv1D(128, 7, padding="valid", activation="relu", strides=3)(x)
x = layers.GlobalMaxPooling1D()(x)

x = layers.Dense(128, activation="relu")(x)
x = layers.Dropout(0.5)(x)
predictions = layers.Dense(1, activation="sigmoid", name="predictions")(x)  # P(positive)

model = keras.Model(inputs, predictions)
model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])

if __name__ == "__main__":
    model.fit(train_ds, validation_data=val_ds, epochs=3)
