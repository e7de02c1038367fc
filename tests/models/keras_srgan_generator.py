# padlab-input: 24x24x3
# padlab-model: build_generator()
# An SRGAN generator as Keras GAN repositories write it: residual blocks of Conv2D,
# BatchNormalization(momentum=0.8) and PReLU(shared_axes=[1, 2]) added back with Add, a long skip
# around all of them, UpSampling2D then Conv2D and a PReLU with one slope per element for the
# upsampling, a 9x9 tanh output. Small widths.
from tensorflow.keras.layers import Input, Conv2D, BatchNormalization, PReLU, Add, UpSampling2D, Activation
from tensorflow.keras.models import Model

n_residual_blocks = 3
gf = 16


def residual_block(layer_input, filters):
    d = Conv2D(filters, kernel_size=3, strides=1, padding='same')(layer_input)
    d = BatchNormalization(momentum=0.8)(d)
    d = PReLU(shared_axes=[1, 2])(d)
    d = Conv2D(filters, kernel_size=3, strides=1, padding='same')(d)
    d = BatchNormalization(momentum=0.8)(d)
    d = Add()([d, layer_input])
    return d


def deconv2d(layer_input):
    u = UpSampling2D(size=2)(layer_input)
    u = Conv2D(64, kernel_size=3, strides=1, padding='same')(u)
    u = PReLU()(u)
    return u


def build_generator(lr_shape=(24, 24, 3)):
    img_lr = Input(shape=lr_shape)
    c1 = Conv2D(gf, kernel_size=9, strides=1, padding='same')(img_lr)
    c1 = PReLU(shared_axes=[1, 2])(c1)
    r = residual_block(c1, gf)
    for _ in range(n_residual_blocks - 1):
        r = residual_block(r, gf)
    c2 = Conv2D(gf, kernel_size=3, strides=1, padding='same')(r)
    c2 = BatchNormalization(momentum=0.8)(c2)
    c2 = Add()([c2, c1])
    u1 = deconv2d(c2)
    gen_hr = Conv2D(3, kernel_size=9, strides=1, padding='same')(u1)
    gen_hr = Activation('tanh')(gen_hr)
    return Model(img_lr, gen_hr)
