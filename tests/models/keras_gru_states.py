# padlab-input: 20x8
# padlab-model: model
# A functional sequence model using a recurrent layer's states: GRU(32, return_sequences=True,
# return_state=True) unpacked as `seq, state = ...`, the state fed to a Dense, the sequence to a
# GRU(16, reset_after=False) and a SimpleRNN, the Bidirectional(GRU, merge_mode="sum") of it,
# and the pieces concatenated before the sigmoid output. Style: the Keras guide "Working with
# RNNs" (return_state, reset_after), functional API.
import keras
from keras import layers

inputs = keras.Input(shape=(20, 8))
seq, state = layers.GRU(32, return_sequences=True, return_state=True)(inputs)
summary = layers.Dense(16, activation="relu")(state)
x = layers.GRU(16, return_sequences=True, reset_after=False)(seq)
x = layers.SimpleRNN(12, return_sequences=True)(x)
x = layers.Bidirectional(layers.GRU(8), merge_mode="sum")(x)
x = layers.Concatenate()([summary, x])
outputs = layers.Dense(1, activation="sigmoid")(x)
model = keras.Model(inputs=inputs, outputs=outputs)
