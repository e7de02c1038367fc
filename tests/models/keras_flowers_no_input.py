# padlab-input: 180x180x3
# padlab-model: model
# Flowers classifier: a data-augmentation Sequential (RandomFlip, RandomRotation, RandomZoom;
# identities at inference) nested as the first layer of the model, Rescaling(1./255), three
# 'same' Conv2D + MaxPooling2D stages, Dropout, Flatten, Dense(128), 5 logits. No layer states
# the input shape: Keras builds the model on its first batch (180x180 RGB images here).
# Style: the TensorFlow tutorial "Image classification" (tf_flowers), second model.
import matplotlib.pyplot as plt
import numpy as np
import PIL
import tensorflow as tf

from tensorflow import keras
from tensorflow.keras import layers
from tensorflow.keras.models import Sequential

batch_size = 32
img_height = 180
img_width = 180
num_classes = 5

data_augmentation = keras.Sequential(
  [
    layers.RandomFlip("horizontal"),
    layers.RandomRotation(0.1),
    layers.RandomZoom(0.1),
  ]
)

model = Sequential([
  data_augmentation,
  layers.Rescaling(1./255),
  layers.Conv2D(16, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  layers.Conv2D(32, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  layers.Conv2D(64, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  layers.Dropout(0.2),
  layers.Flatten(),
  layers.Dense(128, activation='relu'),
  layers.Dense(num_classes, name="outputs")
])

model.compile(optimizer='adam',
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])

epochs = 15
if __name__ == '__main__':
  history = model.fit(train_ds, validation_data=val_ds, epochs=epochs)
