# padlab-input: 16x16x8
# A subclassed keras.Model block (a bottleneck: 1x1 reduce, 3x3, 1x1 expand, each with batch
# norm, a layers.Add shortcut and a final ReLU, all held as attributes) that states no input
# shape: the paste builds it by calling it once on `tf.zeros([1, 16, 16, 8])`, which is the
# shape padlab reads it at without --input (the line above is for the Keras referee, which
# builds a subclassed model only at a given shape).
# Style: the TensorFlow tutorial "Custom layers" (a block built by calling it on tf.zeros).
import tensorflow as tf


class Bottleneck(tf.keras.Model):
    def __init__(self, kernel_size, filters):
        super(Bottleneck, self).__init__(name="")
        reduce, mid, expand = filters
        self.reduce = tf.keras.layers.Conv2D(reduce, (1, 1))
        self.bn_reduce = tf.keras.layers.BatchNormalization()
        self.mid = tf.keras.layers.Conv2D(mid, kernel_size, padding="same")
        self.bn_mid = tf.keras.layers.BatchNormalization()
        self.expand = tf.keras.layers.Conv2D(expand, (1, 1))
        self.bn_expand = tf.keras.layers.BatchNormalization()
        self.act = tf.keras.layers.ReLU()
        self.act_mid = tf.keras.layers.ReLU()
        self.add = tf.keras.layers.Add()
        self.out_act = tf.keras.layers.ReLU()

    def call(self, input_tensor, training=False):
        x = self.act(self.bn_reduce(self.reduce(input_tensor), training=training))
        x = self.act_mid(self.bn_mid(self.mid(x), training=training))
        x = self.bn_expand(self.expand(x), training=training)
        return self.out_act(self.add([x, input_tensor]))


block = Bottleneck(3, [4, 4, 8])
_ = block(tf.zeros([1, 16, 16, 8]))
print(block.summary())
