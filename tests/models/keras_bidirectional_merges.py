# padlab-input: 10x8
# padlab-model: model
# Keras's recurrent outputs in every arrangement, functional: a Bidirectional LSTM with
# merge_mode=None, return_sequences and return_state unpacked into both directions' sequences
# and their h and c; a Bidirectional SimpleRNN(relu) merged with "mul" on the forward sequence; a
# Bidirectional GRU(reset_after=False) averaged ("ave") over it; an LSTM with go_backwards=True
# on the backward sequence; the last steps and two states concatenated into a Dense. Style: the
# Keras "Working with RNNs" guide's return_state / Bidirectional examples, combined.
import keras
from keras import layers

inp = keras.Input(shape=(10, 8))
fwd, bwd, h_fwd, c_fwd, h_bwd, c_bwd = layers.Bidirectional(
    layers.LSTM(16, return_state=True, return_sequences=True), merge_mode=None
)(inp)
m = layers.Bidirectional(layers.SimpleRNN(6, activation="relu", return_sequences=True), merge_mode="mul")(fwd)
v = layers.Bidirectional(layers.GRU(5, reset_after=False), merge_mode="ave")(m)
w = layers.LSTM(7, go_backwards=True)(bwd)
x = layers.Concatenate()([v, w, h_fwd, c_bwd])
out = layers.Dense(3)(x)
model = keras.Model(inp, out)
