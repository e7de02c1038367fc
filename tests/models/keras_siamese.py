# padlab-model: siamese
# Siamese network for pairs of 28x28 images: one embedding network (a functional sub-model of
# Conv2D / MaxPooling2D / GlobalAveragePooling2D / Dense) shared by both inputs, so its layers
# run twice; the L1 distance is keras.ops.abs of layers.subtract, then BatchNormalization and
# a sigmoid Dense. Two inputs, one output.
# Style: the keras-io "Image similarity estimation using a Siamese Network with a contrastive
# loss" example, with the distance written with keras.ops on the symbolic tensors.
import keras
from keras import layers, ops

input_shape = (28, 28, 1)


def build_embedding(embedding_dim=16):
    inp = keras.Input(shape=input_shape)
    x = layers.BatchNormalization()(inp)
    x = layers.Conv2D(8, (5, 5), activation="tanh")(x)
    x = layers.AveragePooling2D(pool_size=(2, 2))(x)
    x = layers.Conv2D(16, (5, 5), activation="tanh")(x)
    x = layers.AveragePooling2D(pool_size=(2, 2))(x)
    x = layers.Flatten()(x)
    x = layers.BatchNormalization()(x)
    x = layers.Dense(embedding_dim, activation="tanh")(x)
    return keras.Model(inp, x, name="embedding_network")


embedding_network = build_embedding()

input_1 = keras.Input(input_shape, name="left")
input_2 = keras.Input(input_shape, name="right")

# As mentioned above, the same network is used for both images: its weights are shared
tower_1 = embedding_network(input_1)
tower_2 = embedding_network(input_2)

l1_distance = ops.abs(layers.subtract([tower_1, tower_2]))
normal_layer = layers.BatchNormalization()(l1_distance)
output_layer = layers.Dense(1, activation="sigmoid")(normal_layer)
siamese = keras.Model(inputs=[input_1, input_2], outputs=output_layer)

siamese.compile(loss="binary_crossentropy", optimizer="RMSprop", metrics=["accuracy"])
siamese.summary()
