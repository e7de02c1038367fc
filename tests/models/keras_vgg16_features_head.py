# padlab-model: model
# A Keras 2 era feature extractor: VGG16 imported from its own module, without its top, at
# 224x224 with ImageNet weights; every layer frozen in a loop; its output (`base.output`)
# flattened into a new head (Dense 256, Dropout, 5 softmax classes) and the model made from
# `base.input`. The images go through vgg16's preprocess_input first, in a Lambda (RGB to
# BGR, ImageNet's mean pixel subtracted: the 'caffe' mode). padlab reads the architecture from
# its own copy of Keras Applications; nothing is downloaded.
# Style: the many blog posts on "transfer learning with VGG16 in Keras".
from keras.applications.vgg16 import VGG16, preprocess_input
from keras.layers import Dense, Dropout, Flatten, Input, Lambda
from keras.models import Model

base = VGG16(weights="imagenet", include_top=False, input_shape=(224, 224, 3))
for layer in base.layers:
    layer.trainable = False

features = base.get_layer("block5_pool").output
x = Flatten(name="flatten")(features)
x = Dense(256, activation="relu")(x)
x = Dropout(0.5)(x)
predictions = Dense(5, activation="softmax")(x)
extractor = Model(inputs=base.input, outputs=predictions)

images = Input(shape=(224, 224, 3))
model = Model(images, extractor(Lambda(preprocess_input)(images)))
model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
