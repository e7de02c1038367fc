from keras import Sequential, Input
from keras.layers import Conv2D, MaxPool2D, Flatten, Dense

model = Sequential()
model.add(Input(shape=(32, 32, 3)))
model.add(Conv2D(16, (5, 5), strides=(3, 3), padding='same', activation='relu'))
model.add(MaxPool2D(pool_size=(3, 3), strides=(2, 2)))
model.add(Flatten())
model.add(Dense(10, activation='softmax'))
model.summary()
