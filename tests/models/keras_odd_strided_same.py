# padlab-model: model
# A classifier for 75x57 crops written entirely with fully qualified tf.keras.layers names:
# strided 'same' convolutions and pools on odd sizes (75 -> 38 -> 19 -> 10 and 57 -> 29 -> 15 -> 8,
# where 'same' pads one more after than before), an even 4x4 kernel with stride 2, a 5x2 kernel,
# AveragePooling2D(padding='same') whose divisor counts only real pixels, GlobalMaxPooling2D.
# Style: TF 2 tutorials and Stack Overflow questions (import tensorflow as tf, then tf.keras.*).
import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.layers.InputLayer(shape=(75, 57, 3)),
    tf.keras.layers.Conv2D(16, 3, strides=2, padding='same', activation='relu'),
    tf.keras.layers.Conv2D(32, (4, 4), strides=(2, 2), padding='same', activation='relu'),
    tf.keras.layers.MaxPooling2D(pool_size=(3, 3), strides=(2, 2), padding='same'),
    tf.keras.layers.Conv2D(32, (5, 2), padding='same', activation='relu'),
    tf.keras.layers.AveragePooling2D(pool_size=(2, 2), padding='same'),
    tf.keras.layers.Conv2D(64, 3, strides=(1, 2), padding='same'),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Activation('relu'),
    tf.keras.layers.GlobalMaxPooling2D(),
    tf.keras.layers.Dense(5),
    tf.keras.layers.Activation('softmax'),
])

model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=1e-3),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(),
              metrics=['accuracy'])
print(model.output_shape)
