# padlab-model: model
# Several inputs and outputs: a support-ticket ranker with a title (token ids), a body (token ids)
# and binary tags; each text goes through a shared-size Embedding and its own Conv1D +
# GlobalMaxPooling1D encoder, the three are concatenated, and two heads predict a priority score
# and a department.
# Style: the Keras functional API guide ("Models with multiple inputs and outputs"), with 1-D
# convolutional text encoders in place of its LSTMs; fixed text lengths.
from tensorflow import keras
from tensorflow.keras import layers

num_tags = 12  # Number of unique issue tags
num_words = 10000  # Size of vocabulary obtained when preprocessing text data
num_departments = 4  # Number of departments for predictions
title_length = 24
body_length = 120

title_input = keras.Input(shape=(title_length,), name="title")  # sequence of ints
body_input = keras.Input(shape=(body_length,), name="body")  # sequence of ints
tags_input = keras.Input(shape=(num_tags,), name="tags")  # binary vectors of size `num_tags`

# Embed each word in the title into a 64-dimensional vector
title_features = layers.Embedding(num_words, 64)(title_input)
# Embed each word in the text into a 64-dimensional vector
body_features = layers.Embedding(num_words, 64)(body_input)

# Reduce each sequence of embedded words into a single vector
title_features = layers.Conv1D(128, 3, padding="same", activation="relu")(title_features)
title_features = layers.GlobalMaxPooling1D()(title_features)
body_features = layers.Conv1D(32, 5, strides=2, activation="relu")(body_features)
body_features = layers.MaxPooling1D(3)(body_features)
body_features = layers.Conv1D(32, 5, activation="relu")(body_features)
body_features = layers.GlobalMaxPooling1D()(body_features)

# Merge all available features into a single large vector via concatenation
x = layers.concatenate([title_features, body_features, tags_input])

# Stick a logistic regression for priority prediction on top of the features
priority_pred = layers.Dense(1, name="priority")(x)
# Stick a department classifier on top of the features
department_pred = layers.Dense(num_departments, name="department")(x)

# Instantiate an end-to-end model predicting both priority and department
model = keras.Model(
    inputs=[title_input, body_input, tags_input],
    outputs={"priority": priority_pred, "department": department_pred},
)

model.compile(
    optimizer=keras.optimizers.RMSprop(1e-3),
    loss={
        "priority": keras.losses.BinaryCrossentropy(from_logits=True),
        "department": keras.losses.CategoricalCrossentropy(from_logits=True),
    },
    loss_weights={"priority": 1.0, "department": 0.2},
)
