# padlab-input: 200
# padlab-model: model
# A bidirectional LSTM text classifier: Embedding of integer token ids, a Bidirectional(LSTM(64,
# return_sequences=True)) feeding a second Bidirectional(LSTM(32)) that keeps the last step, a
# Dense with ReLU and a sigmoid Dense. The sequence length is open (shape=(None,)); 200 tokens
# here. Style: the keras-io "Bidirectional LSTM on IMDB" example, functional, Keras 3 imports.
import keras
from keras import layers

max_features = 20000  # Only consider the top 20k words

inputs = keras.Input(shape=(None,), dtype="int32")
x = layers.Embedding(max_features, 128)(inputs)
x = layers.Bidirectional(layers.LSTM(64, return_sequences=True))(x)
x = layers.Bidirectional(layers.LSTM(32))(x)
x = layers.Dense(16, activation="relu")(x)
outputs = layers.Dense(1, activation="sigmoid")(x)
model = keras.Model(inputs, outputs)
