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
    """compose(f, g, h)(x) == h(g(f(x)))"""
    if not funcs:
        raise ValueError('nothing to compose')
    return reduce(lambda f, g: lambda *a, **kw: g(f(*a, **kw)), funcs)


@wraps(Conv2D)
def DarknetConv2D(*args, **kwargs):
    """Conv2D with Darknet's defaults: L2 weight decay, 'valid' when downsampling."""
    defaults = {'kernel_regularizer': l2(5e-4),
                'padding': 'valid' if kwargs.get('strides') == (2, 2) else 'same'}
    defaults.update(kwargs)
    return Conv2D(*args, **defaults)


def DarknetConv2D_BN_Leaky(*args, **kwargs):
    """conv (no bias: BN follows) -> BN -> leaky ReLU"""
    kwargs.setdefault('use_bias', False)
    return compose(
        DarknetConv2D(*args, **kwargs),
        BatchNormalization(),
        LeakyReLU(negative_slope=0.1))


def resblock_body(x, num_filters, num_blocks):
    '''Downsample by 2, then num_blocks bottleneck residual units.'''
    # pad one row on top and one column on the left, then a valid stride-2 3x3 conv
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
