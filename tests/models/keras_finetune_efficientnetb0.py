# padlab-model: model
# Fine-tuning EfficientNetB0 as keras.io's Stanford Dogs example does: augmentation layers
# applied in a loop to the input, EfficientNetB0 without its top built on that tensor
# (`input_tensor=x`) with ImageNet weights (which add a per-channel Rescaling after its
# Normalization), frozen; a new top from `model.output` (GlobalAveragePooling2D,
# BatchNormalization, Dropout, 120 softmax classes), then the top 20 layers unfrozen but the
# BatchNormalization ones. padlab reads the architecture from its own copy of Keras
# Applications; nothing is downloaded.
# Style: keras.io "Image classification via fine-tuning with EfficientNet".
import keras
from keras import layers
from keras.applications import EfficientNetB0

img_augmentation_layers = [
    layers.RandomRotation(factor=0.15),
    layers.RandomTranslation(height_factor=0.1, width_factor=0.1),
    layers.RandomFlip(),
    layers.RandomContrast(factor=0.1),
]


def img_augmentation(images):
    for layer in img_augmentation_layers:
        images = layer(images)
    return images


def build_model(num_classes):
    inputs = layers.Input(shape=(224, 224, 3))
    x = img_augmentation(inputs)
    model = EfficientNetB0(include_top=False, input_tensor=x, weights="imagenet")

    # Freeze the pretrained weights
    model.trainable = False

    # Rebuild top
    x = layers.GlobalAveragePooling2D(name="avg_pool")(model.output)
    x = layers.BatchNormalization()(x)

    top_dropout_rate = 0.2
    x = layers.Dropout(top_dropout_rate, name="top_dropout")(x)
    outputs = layers.Dense(num_classes, activation="softmax", name="pred")(x)

    # Compile
    model = keras.Model(inputs, outputs, name="EfficientNet")
    optimizer = keras.optimizers.Adam(learning_rate=1e-2)
    model.compile(
        optimizer=optimizer, loss="categorical_crossentropy", metrics=["accuracy"]
    )
    return model


def unfreeze_model(model):
    # We unfreeze the top 20 layers while leaving BatchNorm layers frozen
    for layer in model.layers[-20:]:
        if not isinstance(layer, layers.BatchNormalization):
            layer.trainable = True


model = build_model(num_classes=120)
unfreeze_model(model)
