# Seed 000: Keras 'same' with a (4, 1) kernel on 100 x 20, written as a functional chain.
conv_first1 = keras.Input(shape=(100, 20, 32))
inputs = conv_first1
conv_first1 = Conv2D(32, (4, 1), padding="same")(conv_first1)
conv_first1 = Conv2D(32, (4, 1), strides=(2, 1), padding="same")(conv_first1)
model = Model(inputs, conv_first1)
