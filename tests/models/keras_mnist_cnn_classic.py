# padlab-model: model
# The classic Keras MNIST CNN: input_shape chosen by K.image_data_format() (channels_last here),
# two valid 3x3 convolutions, a 2x2 max pool, dropout, Flatten, Dense(128), dropout, softmax.
# Style: the old keras/examples/mnist_cnn.py as pasted into Stack Overflow questions
# (`from keras.layers import ...`, Sequential() + model.add, a backend check on the data format).
from __future__ import print_function
import keras
from keras.datasets import mnist
from keras.models import Sequential
from keras.layers import Dense, Dropout, Flatten
from keras.layers import Conv2D, MaxPooling2D
from keras import backend as K

batch_size = 128
num_classes = 10
epochs = 12

img_rows, img_cols = 28, 28  # MNIST digits

if K.image_data_format() == 'channels_first':
    input_shape = (1, img_rows, img_cols)
else:
    input_shape = (img_rows, img_cols, 1)

model = Sequential()
model.add(Conv2D(32, kernel_size=(3, 3),
                 activation='relu',
                 input_shape=input_shape))
model.add(Conv2D(64, (3, 3), activation='relu'))
model.add(MaxPooling2D(pool_size=(2, 2)))
model.add(Dropout(0.25))
model.add(Flatten())
model.add(Dense(128, activation='relu'))
model.add(Dropout(0.5))
model.add(Dense(num_classes, activation='softmax'))

model.compile(loss=keras.losses.categorical_crossentropy,
              optimizer=keras.optimizers.Adadelta(),
              metrics=['accuracy'])

if __name__ == '__main__':
    (x_train, y_train), (x_test, y_test) = mnist.load_data()
    x_train = x_train.reshape(x_train.shape[0], img_rows, img_cols, 1).astype('float32') / 255
    y_train = keras.utils.to_categorical(y_train, num_classes)
    model.fit(x_train, y_train, batch_size=batch_size, epochs=epochs, verbose=1)
