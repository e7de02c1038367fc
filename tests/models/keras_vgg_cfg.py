# padlab-model: model
# VGG-11-like network for CIFAR-10 built from a config list in a for loop: 'M' adds a 2x2 max
# pool, a number adds Conv2D(3, 'same') + BatchNormalization + ReLU; then Flatten, Dropout and
# two Dense layers. Channel widths halved from VGG's.
# Style: CIFAR repositories porting PyTorch's `cfg` dictionaries to Keras Sequential + model.add.
from tensorflow.keras import layers, models

cfg = {
    'VGG11': [64, 'M', 128, 'M', 256, 256, 'M', 512, 512, 'M', 512, 512, 'M'],
    'VGG13': [64, 64, 'M', 128, 128, 'M', 256, 256, 'M', 512, 512, 'M', 512, 512, 'M'],
}


def make_vgg(name='VGG11', num_classes=10, width=0.5, input_shape=(32, 32, 3)):
    model = models.Sequential(name=name.lower())
    model.add(layers.Input(shape=input_shape))
    for v in cfg[name]:
        if v == 'M':
            model.add(layers.MaxPooling2D(pool_size=2, strides=2))
        else:
            model.add(layers.Conv2D(int(v * width), kernel_size=3, padding='same', use_bias=False))
            model.add(layers.BatchNormalization())
            model.add(layers.ReLU())
    model.add(layers.Flatten())
    model.add(layers.Dropout(0.5))
    model.add(layers.Dense(256, activation='relu'))
    model.add(layers.Dense(num_classes))
    return model


model = make_vgg('VGG11')
model.summary()
