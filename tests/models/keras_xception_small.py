# padlab-model: model
# Small Xception-style classifier: augmentation (identity at inference), Rescaling, a strided
# entry block, then separable-conv blocks whose residual is a strided 1x1 projection of the
# previous block's output (previous_block_activation), global average pooling, dropout.
# Style: the keras-io "Image classification from scratch" example (cats vs dogs), with the
# augmentation inside the model as its earlier versions did; 150x150 input to keep it quick.
import keras
from keras import layers

image_size = (150, 150)

data_augmentation_layers = [
    layers.RandomFlip("horizontal"),
    layers.RandomRotation(0.1),
]


def data_augmentation(images):
    for layer in data_augmentation_layers:
        images = layer(images)
    return images


def make_model(input_shape, num_classes):
    inputs = keras.Input(shape=input_shape)
    x = data_augmentation(inputs)  # random while training, passes images through at inference

    # stem: pixels to [0, 1], then 150 -> 75
    x = layers.Rescaling(1.0 / 255)(x)
    x = layers.Conv2D(32, 3, strides=2, padding="same")(x)
    x = layers.BatchNormalization()(x)
    x = layers.Activation("relu")(x)

    x = layers.Conv2D(64, 3, padding="same")(x)
    x = layers.BatchNormalization()(x)
    x = layers.Activation("relu")(x)

    previous_block_activation = x  # what the first block's shortcut starts from

    for size in [128, 256, 512]:
        x = layers.Activation("relu")(x)
        x = layers.SeparableConv2D(size, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)

        x = layers.Activation("relu")(x)
        x = layers.SeparableConv2D(size, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)

        x = layers.MaxPooling2D(3, strides=2, padding="same")(x)

        # the shortcut must match the pooled map: 1x1 projection with the same stride
        residual = layers.Conv2D(size, 1, strides=2, padding="same")(previous_block_activation)
        x = layers.add([x, residual])
        previous_block_activation = x

    x = layers.SeparableConv2D(728, 3, padding="same")(x)
    x = layers.BatchNormalization()(x)
    x = layers.Activation("relu")(x)

    x = layers.GlobalAveragePooling2D()(x)
    if num_classes == 2:
        activation = "sigmoid"
        units = 1
    else:
        activation = "softmax"
        units = num_classes

    x = layers.Dropout(0.25)(x)
    outputs = layers.Dense(units, activation=activation)(x)
    return keras.Model(inputs, outputs)


model = make_model(input_shape=image_size + (3,), num_classes=2)

if __name__ == "__main__":
    model.compile(optimizer=keras.optimizers.Adam(3e-4), loss="binary_crossentropy",
                  metrics=["accuracy"])
    model.fit(train_ds, epochs=25, validation_data=val_ds)
