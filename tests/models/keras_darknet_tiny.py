# padlab-input: 96x128x3
# padlab-model: darknet_body(Input(shape=(None, None, 3)))
# Darknet-53-style backbone (reduced): DarknetConv2D_BN_Leaky units (Conv2D without bias, BN,
# LeakyReLU(0.1)); each resblock_body pads the top and left by one row and column with
# ZeroPadding2D(((1, 0), (1, 0))) and downsamples with a 'valid' stride-2 3x3 Conv2D, then adds
# 1x1-then-3x3 residual units; the model's input sizes are open (None, None, 3).
# Style: the Keras YOLOv3 ports (model.py with compose(), functools.reduce and wraps).
from functools import wraps, reduce

from keras.layers import Conv2D, Add, ZeroPadding2D, Input, BatchNormalization, LeakyReLU
from keras.models import Model
from keras.regularizers import l2


def compose(*funcs):
    """Compose arbitrarily many functions, evaluated left to right."""
    if funcs:
        return reduce(lambda f, g: lambda *a, **kw: g(f(*a, **kw)), funcs)
    else:
        raise ValueError('Composition of empty sequence not supported.')


@wraps(Conv2D)
def DarknetConv2D(*args, **kwargs):
    """Wrapper to set Darknet parameters for Convolution2D."""
    darknet_conv_kwargs = {'kernel_regularizer': l2(5e-4)}
    darknet_conv_kwargs['padding'] = 'valid' if kwargs.get('strides') == (2, 2) else 'same'
    darknet_conv_kwargs.update(kwargs)
    return Conv2D(*args, **darknet_conv_kwargs)


def DarknetConv2D_BN_Leaky(*args, **kwargs):
    """Darknet Convolution2D followed by BatchNormalization and LeakyReLU."""
    no_bias_kwargs = {'use_bias': False}
    no_bias_kwargs.update(kwargs)
    return compose(
        DarknetConv2D(*args, **no_bias_kwargs),
        BatchNormalization(),
        LeakyReLU(negative_slope=0.1))


def resblock_body(x, num_filters, num_blocks):
    '''A series of resblocks starting with a downsampling Convolution2D'''
    # Darknet uses left and top padding instead of 'same' mode
    x = ZeroPadding2D(((1, 0), (1, 0)))(x)
    x = DarknetConv2D_BN_Leaky(num_filters, (3, 3), strides=(2, 2))(x)
    for i in range(num_blocks):
        y = compose(
                DarknetConv2D_BN_Leaky(num_filters // 2, (1, 1)),
                DarknetConv2D_BN_Leaky(num_filters, (3, 3)))(x)
        x = Add()([x, y])
    return x


def darknet_body(inputs, base=16):
    '''A reduced Darknet body: five downsamplings, 1-2-2-2-1 residual units.'''
    x = DarknetConv2D_BN_Leaky(base, (3, 3))(inputs)
    x = resblock_body(x, base * 2, 1)
    x = resblock_body(x, base * 4, 2)
    x = resblock_body(x, base * 8, 2)
    x = resblock_body(x, base * 16, 2)
    x = resblock_body(x, base * 32, 1)
    return Model(inputs, x)
