# padlab-model: lenet
# LeNet-5 on 28x28 MNIST digits: a 5x5 'same' convolution (the classic net's 32x32 input, kept by
# padding), tanh, 2x2 average pooling, a valid 5x5 convolution to 16 maps, average pooling,
# Flatten, Dense 120 / 84 / 10.
# Style: LeNet-5 as TF 2 blog posts write it (tf.keras.models.Sequential given a list, kernel_size
# and strides spelled as keywords, average pooling).
import tensorflow as tf

lenet = tf.keras.models.Sequential([
    tf.keras.layers.Conv2D(filters=6, kernel_size=(5, 5), strides=(1, 1), activation='tanh',
                           padding='same', input_shape=(28, 28, 1)),
    tf.keras.layers.AveragePooling2D(pool_size=(2, 2), strides=(2, 2)),
    tf.keras.layers.Conv2D(filters=16, kernel_size=(5, 5), strides=(1, 1), activation='tanh',
                           padding='valid'),
    tf.keras.layers.AveragePooling2D(pool_size=(2, 2), strides=(2, 2)),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(units=120, activation='tanh'),
    tf.keras.layers.Dense(units=84, activation='tanh'),
    tf.keras.layers.Dense(units=10, activation='softmax'),
])

lenet.compile(loss='sparse_categorical_crossentropy', optimizer='SGD', metrics=['accuracy'])
lenet.summary()
