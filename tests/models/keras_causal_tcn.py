from keras.models import Sequential
from keras.layers import Conv1D, Dense, GlobalAveragePooling1D

model = Sequential([
    Conv1D(16, 2, padding='causal', dilation_rate=1, activation='relu', input_shape=(100, 4)),
    Conv1D(16, 2, padding='causal', dilation_rate=2, activation='relu'),
    Conv1D(16, 2, padding='causal', dilation_rate=4, activation='relu'),  # receptive field 8
    GlobalAveragePooling1D(),
    Dense(1),
])
