//! Known forwards: the `forward` of the block and model classes people print, which a printout
//! does not show.
//!
//! A forward is used only when the printout's class name *and* its children (their names and
//! classes, as that forward uses them) are the ones it was written for; anything else falls back
//! to the printed order, said on its rows. Each forward is written here from the published
//! architecture (torchvision's classification models: ResNet, DenseNet, MobileNetV2 and V3,
//! AlexNet, VGG, SqueezeNet, GoogLeNet, Inception v3, ShuffleNetV2, MNASNet, RegNet,
//! EfficientNet V1 and V2, ConvNeXt, with their blocks, read from torchvision 0.29's source; the CIFAR
//! ResNet of kuangliu/pytorch-cifar; d2l's `Residual`; C3D; Kim's text CNN; the ModuleList
//! U-Net; torchaudio's M5 and pytorch/examples' VAE) and its rows name it, so a porter whose class only shares the name knows to paste the
//! code. A block whose residual torchvision decides from its configuration (stride 1 and as many
//! channels out as in) decides it here from the printed convolutions, said on its rows.

use super::torch::{Body, Module, split_args};

/// A module's forward, as Python for the rebuilt code: a method body over `x` using its
/// children as `self.<name>`.
#[derive(Default)]
pub struct Known {
    /// Whose forward it is, for the rows (`torchvision's BasicBlock`).
    pub what: String,
    /// What it computes, in a line (`relu(bn2(conv2(relu(bn1(conv1(x))))) + downsample(x))`).
    pub rule: String,
    /// The method's body, one statement a line, indented by 4 per level below the method.
    pub body: Vec<String>,
    /// Children the forward indexes (`self.ups[0]`): built as `nn.ModuleList`.
    pub lists: Vec<String>,
    /// Its parameters after `self` (`x`; `inputs`, a list, for a DenseNet layer; `x1, x2`).
    pub params: &'static str,
    /// What the module holds that torch does not print (a bare `nn.Parameter`), built as a
    /// layer computing the same: its name, constructor and what its rows say.
    pub hidden: Vec<(String, String, String)>,
    /// Printed leaves below it (paths from it) whose work the forward does itself, built as
    /// `nn.Identity()` and never called (torchvision's `Permute()`, which prints no dims).
    pub placeholders: Vec<String>,
}

/// A child's class by name, if the module has that child.
fn class_of<'a>(children: &'a [Module], name: &str) -> Option<&'a str> {
    children
        .iter()
        .find(|c| c.name == name)
        .map(|c| c.class.as_str())
}

/// Whether the children are exactly `names` (in any order), each of the class `classes` gives
/// (`*` for any).
fn exactly(children: &[Module], want: &[(&str, &str)]) -> bool {
    children.len() == want.len()
        && want.iter().all(|(name, class)| {
            class_of(children, name).is_some_and(|c| *class == "*" || c == *class)
        })
}

/// Whether the module's printed class is an `nn.Sequential` whose forward is its children in
/// order: torch's own, or a torchvision subclass that only fills it.
pub fn sequential(class: &str) -> bool {
    matches!(
        class,
        "Sequential"
            | "ConvBNReLU"
            | "ConvBNActivation"
            | "ConvNormActivation"
            | "Conv2dNormActivation"
            | "Conv3dNormActivation"
            | "_Transition"
            // RegNet's stem, stages and bottleneck transform.
            | "SimpleStemIN"
            | "AnyStage"
            | "BottleneckTransform"
    )
}

/// A printed Conv2d: its channels in and out, and whether it strides or dilates.
struct ConvLeaf {
    channels: (i64, i64),
    strided: bool,
    dilated: bool,
}

/// The Conv2d leaves under `m`, in printed order.
fn convs(m: &Module, out: &mut Vec<ConvLeaf>) {
    match &m.body {
        Body::Leaf { args } if m.class == "Conv2d" => {
            let items = split_args(args);
            let int = |i: usize, key: &str| {
                items
                    .iter()
                    .find(|(k, _)| *k == Some(key))
                    .or_else(|| items.get(i).filter(|(k, _)| k.is_none()))
                    .and_then(|(_, v)| v.trim().parse::<i64>().ok())
            };
            // A keyword's value without spaces, `1` when it is not printed.
            let not_one = |key: &str| {
                items
                    .iter()
                    .find(|(k, _)| *k == Some(key))
                    .map(|(_, v)| v.chars().filter(|c| !c.is_whitespace()).collect::<String>())
                    .is_some_and(|s| s != "(1,1)" && s != "1")
            };
            if let (Some(i), Some(o)) = (int(0, "in_channels"), int(1, "out_channels")) {
                out.push(ConvLeaf {
                    channels: (i, o),
                    strided: not_one("stride"),
                    dilated: not_one("dilation"),
                });
            }
        }
        Body::Leaf { .. } => {}
        Body::Container { children, .. } => {
            for c in children {
                convs(c, out);
            }
        }
    }
}

/// Whether an inverted-residual block (torchvision's MobileNetV2 and V3, MNASNet and
/// EfficientNet blocks) adds its input: torchvision adds it when the block has stride 1 and
/// as many channels out as in, which the printed convolutions under it show (`None`: no
/// convolution printed). A dilated convolution is printed with stride 1 where torchvision
/// traded the stride for the dilation: said in the reason.
fn adds_input(m: &Module) -> Option<(bool, String)> {
    let mut v = Vec::new();
    convs(m, &mut v);
    let (first, last) = (v.first()?, v.last()?);
    let strided = v.iter().any(|c| c.strided);
    let residual = !strided && first.channels.0 == last.channels.1;
    let why = if residual {
        let dilated = if v.iter().any(|c| c.dilated) {
            ", its dilated convolution taken for a stride-1 one"
        } else {
            ""
        };
        format!(
            "stride 1 and {} channels in and out{dilated}: the input added",
            first.channels.0
        )
    } else if strided {
        "strided: no residual".to_string()
    } else {
        format!(
            "{} channels in, {} out: no residual",
            first.channels.0, last.channels.1
        )
    };
    Some((residual, why))
}

fn known(what: &str, rule: &str, body: &[&str]) -> Known {
    Known {
        what: what.to_string(),
        rule: rule.to_string(),
        body: body.iter().map(|s| s.to_string()).collect(),
        lists: Vec::new(),
        params: "x",
        ..Default::default()
    }
}

/// A forward known by its class and exactly its children, as the tutorial printed it.
struct Tutorial {
    children: &'static [(&'static str, &'static str)],
    what: &'static str,
    rule: &'static str,
    /// The forward's statements, in pieces.
    body: &'static [&'static [&'static str]],
}

/// The classifier both LeNet-like tutorial Nets end with.
const LENET_CLASSIFIER: &[&str] = &[
    "x = torch.flatten(x, 1)",
    "x = F.relu(self.fc1(x))",
    "x = F.relu(self.fc2(x))",
    "return self.fc3(x)",
];

/// The PyTorch tutorials' and examples' `Net`s, told apart by their children.
const TUTORIAL_NETS: &[Tutorial] = &[
    Tutorial {
        children: &[
            ("conv1", "Conv2d"),
            ("pool", "MaxPool2d"),
            ("conv2", "Conv2d"),
            ("fc1", "Linear"),
            ("fc2", "Linear"),
            ("fc3", "Linear"),
        ],
        what: "the PyTorch tutorial's CIFAR-10 Net (\"Training a Classifier\")",
        rule: "fc3(relu(fc2(relu(fc1(flatten(pool(relu(conv2(pool(relu(conv1(x)))))))))))",
        body: &[
            &[
                "x = self.pool(F.relu(self.conv1(x)))",
                "x = self.pool(F.relu(self.conv2(x)))",
            ],
            LENET_CLASSIFIER,
        ],
    },
    Tutorial {
        children: &[
            ("conv1", "Conv2d"),
            ("conv2", "Conv2d"),
            ("fc1", "Linear"),
            ("fc2", "Linear"),
            ("fc3", "Linear"),
        ],
        what: "the PyTorch tutorial's LeNet Net (\"Neural Networks\")",
        rule: "fc3(relu(fc2(relu(fc1(flatten(max_pool2d(relu(conv2(max_pool2d(relu(conv1(x)), 2))), 2)))))))",
        body: &[
            &[
                "x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))",
                "x = F.max_pool2d(F.relu(self.conv2(x)), 2)",
            ],
            LENET_CLASSIFIER,
        ],
    },
    Tutorial {
        children: &[
            ("conv1", "Conv2d"),
            ("conv2", "Conv2d"),
            ("dropout1", "Dropout"),
            ("dropout2", "Dropout"),
            ("fc1", "Linear"),
            ("fc2", "Linear"),
        ],
        what: "pytorch/examples' MNIST Net",
        rule: "log_softmax(fc2(dropout2(relu(fc1(flatten(dropout1(max_pool2d(relu(conv2(relu(conv1(x)))), 2))))))), 1)",
        body: &[&[
            "x = F.relu(self.conv1(x))",
            "x = F.relu(self.conv2(x))",
            "x = F.max_pool2d(x, 2)",
            "x = self.dropout1(x)",
            "x = torch.flatten(x, 1)",
            "x = F.relu(self.fc1(x))",
            "x = self.dropout2(x)",
            "x = self.fc2(x)",
            "return F.log_softmax(x, dim=1)",
        ]],
    },
];

/// The forward of `m` if padlab knows it; `parent` is the class of the module holding it.
pub fn of(m: &Module, parent: Option<&str>) -> Option<Known> {
    let Body::Container { children, .. } = &m.body else {
        return None;
    };
    if let Some(k) = torchvision_more(m) {
        return Some(k);
    }
    let has = |n: &str| class_of(children, n).is_some();
    let c = children;
    match m.class.as_str() {
        // torchvision: relu after the residual add, the shortcut through `downsample`.
        _ if torchvision_block(m).is_some() => torchvision_block(m),
        // kuangliu/pytorch-cifar: F.relu, the shortcut a Sequential (empty: the input itself).
        "BasicBlock"
            if exactly(
                c,
                &[
                    ("conv1", "Conv2d"),
                    ("bn1", "BatchNorm2d"),
                    ("conv2", "Conv2d"),
                    ("bn2", "BatchNorm2d"),
                    ("shortcut", "Sequential"),
                ],
            ) =>
        {
            Some(known(
                "the CIFAR ResNet's BasicBlock (kuangliu/pytorch-cifar)",
                "relu(bn2(conv2(relu(bn1(conv1(x))))) + shortcut(x))",
                &[
                    "out = F.relu(self.bn1(self.conv1(x)))",
                    "out = self.bn2(self.conv2(out))",
                    "out += self.shortcut(x)",
                    "out = F.relu(out)",
                    "return out",
                ],
            ))
        }
        "Bottleneck"
            if exactly(
                c,
                &[
                    ("conv1", "Conv2d"),
                    ("bn1", "BatchNorm2d"),
                    ("conv2", "Conv2d"),
                    ("bn2", "BatchNorm2d"),
                    ("conv3", "Conv2d"),
                    ("bn3", "BatchNorm2d"),
                    ("shortcut", "Sequential"),
                ],
            ) =>
        {
            Some(known(
                "the CIFAR ResNet's Bottleneck (kuangliu/pytorch-cifar)",
                "relu(bn3(conv3(relu(bn2(conv2(relu(bn1(conv1(x)))))))) + shortcut(x))",
                &[
                    "out = F.relu(self.bn1(self.conv1(x)))",
                    "out = F.relu(self.bn2(self.conv2(out)))",
                    "out = self.bn3(self.conv3(out))",
                    "out += self.shortcut(x)",
                    "out = F.relu(out)",
                    "return out",
                ],
            ))
        }
        "ResNet"
            if exactly(
                c,
                &[
                    ("conv1", "Conv2d"),
                    ("bn1", "BatchNorm2d"),
                    ("relu", "ReLU"),
                    ("maxpool", "MaxPool2d"),
                    ("layer1", "Sequential"),
                    ("layer2", "Sequential"),
                    ("layer3", "Sequential"),
                    ("layer4", "Sequential"),
                    ("avgpool", "*"),
                    ("fc", "Linear"),
                ],
            ) =>
        {
            Some(known(
                "torchvision's ResNet",
                "fc(flatten(avgpool(layer4(layer3(layer2(layer1(maxpool(relu(bn1(conv1(x)))))))))))",
                &[
                    "x = self.conv1(x)",
                    "x = self.bn1(x)",
                    "x = self.relu(x)",
                    "x = self.maxpool(x)",
                    "x = self.layer1(x)",
                    "x = self.layer2(x)",
                    "x = self.layer3(x)",
                    "x = self.layer4(x)",
                    "x = self.avgpool(x)",
                    "x = torch.flatten(x, 1)",
                    "x = self.fc(x)",
                    "return x",
                ],
            ))
        }
        "ResNet"
            if exactly(
                c,
                &[
                    ("conv1", "Conv2d"),
                    ("bn1", "BatchNorm2d"),
                    ("layer1", "Sequential"),
                    ("layer2", "Sequential"),
                    ("layer3", "Sequential"),
                    ("layer4", "Sequential"),
                    ("linear", "Linear"),
                ],
            ) =>
        {
            Some(known(
                "the CIFAR ResNet (kuangliu/pytorch-cifar)",
                "linear(flatten(avg_pool2d(layer4(...(layer1(relu(bn1(conv1(x)))))), 4)))",
                &[
                    "out = F.relu(self.bn1(self.conv1(x)))",
                    "out = self.layer1(out)",
                    "out = self.layer2(out)",
                    "out = self.layer3(out)",
                    "out = self.layer4(out)",
                    "out = F.avg_pool2d(out, 4)",
                    "out = torch.flatten(out, 1)",
                    "out = self.linear(out)",
                    "return out",
                ],
            ))
        }
        // d2l.ai's Residual: conv3 (a 1x1 conv) on the shortcut when the shape changes.
        "Residual"
            if exactly(
                c,
                &[
                    ("conv1", "Conv2d"),
                    ("conv2", "Conv2d"),
                    ("bn1", "BatchNorm2d"),
                    ("bn2", "BatchNorm2d"),
                ],
            ) || exactly(
                c,
                &[
                    ("conv1", "Conv2d"),
                    ("conv2", "Conv2d"),
                    ("conv3", "Conv2d"),
                    ("bn1", "BatchNorm2d"),
                    ("bn2", "BatchNorm2d"),
                ],
            ) =>
        {
            let mut body = vec![
                "y = F.relu(self.bn1(self.conv1(x)))",
                "y = self.bn2(self.conv2(y))",
            ];
            if has("conv3") {
                body.push("x = self.conv3(x)");
            }
            body.extend(["y += x", "return F.relu(y)"]);
            Some(known(
                "d2l.ai's Residual",
                if has("conv3") {
                    "relu(bn2(conv2(relu(bn1(conv1(x))))) + conv3(x))"
                } else {
                    "relu(bn2(conv2(relu(bn1(conv1(x))))) + x)"
                },
                &body,
            ))
        }
        // torchvision's DenseNet: each layer reads the concatenation of all before it.
        "DenseNet" if exactly(c, &[("features", "Sequential"), ("classifier", "Linear")]) => {
            Some(known(
                "torchvision's DenseNet",
                "classifier(flatten(adaptive_avg_pool2d(relu(features(x)), (1, 1))))",
                &[
                    "features = self.features(x)",
                    "out = F.relu(features)",
                    "out = F.adaptive_avg_pool2d(out, (1, 1))",
                    "out = torch.flatten(out, 1)",
                    "out = self.classifier(out)",
                    "return out",
                ],
            ))
        }
        "_DenseBlock"
            if !c.is_empty()
                && c.iter().enumerate().all(|(i, l)| {
                    l.class == "_DenseLayer" && l.name == format!("denselayer{}", i + 1)
                }) =>
        {
            let mut body = vec!["features = [x]".to_string()];
            for l in c {
                body.push(format!("features.append(self.{}(features))", l.name));
            }
            body.push("return torch.cat(features, 1)".into());
            Some(Known {
                what: "torchvision's _DenseBlock".into(),
                rule: "cat([x, layer1([x]), layer2([x, ...]), ...], 1): each layer reads all before it".into(),
                body,
                lists: Vec::new(),
                params: "x",
                ..Default::default()
            })
        }
        "_DenseLayer"
            if parent == Some("_DenseBlock")
                && exactly(
                    c,
                    &[
                        ("norm1", "BatchNorm2d"),
                        ("relu1", "ReLU"),
                        ("conv1", "Conv2d"),
                        ("norm2", "BatchNorm2d"),
                        ("relu2", "ReLU"),
                        ("conv2", "Conv2d"),
                    ],
                ) =>
        {
            let mut k = known(
                "torchvision's _DenseLayer (drop_rate 0 assumed: the printout does not show it, and dropout keeps the shape)",
                "conv2(relu2(norm2(conv1(relu1(norm1(cat(inputs, 1)))))))",
                &[
                    "x = torch.cat(inputs, 1)",
                    "x = self.conv1(self.relu1(self.norm1(x)))",
                    "return self.conv2(self.relu2(self.norm2(x)))",
                ],
            );
            k.params = "inputs";
            Some(k)
        }
        // torchvision's MobileNetV2: a residual add where the block keeps the shape.
        "InvertedResidual" if exactly(c, &[("conv", "Sequential")]) => {
            let (residual, why) = adds_input(m)?;
            Some(if residual {
                known(
                    &format!("torchvision's MobileNetV2 InvertedResidual ({why})"),
                    "x + conv(x)",
                    &["return x + self.conv(x)"],
                )
            } else {
                known(
                    &format!("torchvision's MobileNetV2 InvertedResidual ({why})"),
                    "conv(x)",
                    &["return self.conv(x)"],
                )
            })
        }
        "MobileNetV2"
            if exactly(
                c,
                &[("features", "Sequential"), ("classifier", "Sequential")],
            ) =>
        {
            // torchvision's first version (blocks printed as ConvBNReLU) averaged with
            // `x.mean([2, 3])`; the later ones pool and flatten.
            let old = printed_class_under(m, "ConvBNReLU");
            Some(if old {
                known(
                    "torchvision's MobileNetV2 (the ConvBNReLU version: `x.mean([2, 3])`)",
                    "classifier(mean(features(x), [2, 3]))",
                    &[
                        "x = self.features(x)",
                        "x = x.mean([2, 3])",
                        "x = self.classifier(x)",
                        "return x",
                    ],
                )
            } else {
                known(
                    "torchvision's MobileNetV2",
                    "classifier(flatten(adaptive_avg_pool2d(features(x), (1, 1))))",
                    &[
                        "x = self.features(x)",
                        "x = F.adaptive_avg_pool2d(x, (1, 1))",
                        "x = torch.flatten(x, 1)",
                        "x = self.classifier(x)",
                        "return x",
                    ],
                )
            })
        }
        // torchvision's AlexNet and VGG, MobileNetV3 and EfficientNet (V1 and V2).
        "AlexNet" | "VGG" | "MobileNetV3" | "EfficientNet"
            if exactly(
                c,
                &[
                    ("features", "Sequential"),
                    ("avgpool", "*"),
                    ("classifier", "Sequential"),
                ],
            ) =>
        {
            Some(known(
                &format!("torchvision's {}", m.class),
                "classifier(flatten(avgpool(features(x))))",
                &[
                    "x = self.features(x)",
                    "x = self.avgpool(x)",
                    "x = torch.flatten(x, 1)",
                    "x = self.classifier(x)",
                    "return x",
                ],
            ))
        }
        // C3D (Tran et al.), as jfzhang95/pytorch-video-recognition writes it: one ReLU and one
        // Dropout module used after each layer.
        "C3D" => {
            const C3D: &[(&str, &str)] = &[
                ("conv1", "Conv3d"),
                ("pool1", "MaxPool3d"),
                ("conv2", "Conv3d"),
                ("pool2", "MaxPool3d"),
                ("conv3a", "Conv3d"),
                ("conv3b", "Conv3d"),
                ("pool3", "MaxPool3d"),
                ("conv4a", "Conv3d"),
                ("conv4b", "Conv3d"),
                ("pool4", "MaxPool3d"),
                ("conv5a", "Conv3d"),
                ("conv5b", "Conv3d"),
                ("pool5", "MaxPool3d"),
                ("fc6", "Linear"),
                ("fc7", "Linear"),
                ("fc8", "Linear"),
                ("dropout", "Dropout"),
                ("relu", "ReLU"),
            ];
            // DavideA/c3d-pytorch's ends with a softmax module over the logits.
            let softmax = class_of(c, "softmax") == Some("Softmax");
            let mut want = C3D.to_vec();
            if softmax {
                want.push(("softmax", "Softmax"));
            }
            if !exactly(c, &want) {
                return None;
            }
            let mut body = vec![
                "x = self.relu(self.conv1(x))",
                "x = self.pool1(x)",
                "x = self.relu(self.conv2(x))",
                "x = self.pool2(x)",
                "x = self.relu(self.conv3a(x))",
                "x = self.relu(self.conv3b(x))",
                "x = self.pool3(x)",
                "x = self.relu(self.conv4a(x))",
                "x = self.relu(self.conv4b(x))",
                "x = self.pool4(x)",
                "x = self.relu(self.conv5a(x))",
                "x = self.relu(self.conv5b(x))",
                "x = self.pool5(x)",
                "x = torch.flatten(x, 1)",
                "x = self.relu(self.fc6(x))",
                "x = self.dropout(x)",
                "x = self.relu(self.fc7(x))",
                "x = self.dropout(x)",
            ];
            body.push(if softmax {
                "return self.softmax(self.fc8(x))"
            } else {
                "return self.fc8(x)"
            });
            Some(known(
                if softmax {
                    "C3D (the shared `relu` after each conv and fc6/fc7, `dropout` after fc6 and fc7, `softmax` over fc8's logits)"
                } else {
                    "C3D (the shared `relu` after each conv and fc6/fc7, `dropout` after fc6 and fc7)"
                },
                if softmax {
                    "softmax(fc8(dropout(relu(fc7(dropout(relu(fc6(flatten(pool5(...relu(conv1(x))...))))))))))"
                } else {
                    "fc8(dropout(relu(fc7(dropout(relu(fc6(flatten(pool5(...relu(conv1(x))...)))))))))"
                },
                &body,
            ))
        }
        // torchaudio's speech-command tutorial M5: relu after each batch norm, then a global
        // average pool over time, the classes on the last axis.
        "M5" if exactly(
            c,
            &[
                ("conv1", "Conv1d"),
                ("bn1", "BatchNorm1d"),
                ("pool1", "MaxPool1d"),
                ("conv2", "Conv1d"),
                ("bn2", "BatchNorm1d"),
                ("pool2", "MaxPool1d"),
                ("conv3", "Conv1d"),
                ("bn3", "BatchNorm1d"),
                ("pool3", "MaxPool1d"),
                ("conv4", "Conv1d"),
                ("bn4", "BatchNorm1d"),
                ("pool4", "MaxPool1d"),
                ("fc1", "Linear"),
            ],
        ) =>
        {
            let mut body = Vec::new();
            for i in 1..=4 {
                body.push(format!("x = self.conv{i}(x)"));
                body.push(format!("x = self.pool{i}(F.relu(self.bn{i}(x)))"));
            }
            body.extend([
                "x = F.avg_pool1d(x, x.shape[-1])".to_string(),
                "x = x.permute(0, 2, 1)".into(),
                "return F.log_softmax(self.fc1(x), dim=2)".into(),
            ]);
            Some(Known {
                what: "torchaudio's M5 (the speech-command tutorial)".into(),
                rule: "log_softmax(fc1(permute(avg_pool1d(pool4(relu(bn4(conv4(...)))), all), 0, 2, 1)), 2)".into(),
                body,
                lists: Vec::new(),
                params: "x",
                ..Default::default()
            })
        }
        // pytorch/examples' VAE: encode to (mu, logvar), sample, decode; three outputs.
        "VAE"
            if exactly(
                c,
                &[
                    ("fc1", "Linear"),
                    ("fc21", "Linear"),
                    ("fc22", "Linear"),
                    ("fc3", "Linear"),
                    ("fc4", "Linear"),
                ],
            ) =>
        {
            let features = c
                .iter()
                .find(|m| m.name == "fc1")
                .and_then(|m| match &m.body {
                    Body::Leaf { args } => split_args(args)
                        .iter()
                        .find(|(k, _)| *k == Some("in_features"))
                        .and_then(|(_, v)| v.parse::<i64>().ok()),
                    Body::Container { .. } => None,
                })?;
            let body = vec![
                format!("h = F.relu(self.fc1(x.view(-1, {features})))"),
                "mu, logvar = self.fc21(h), self.fc22(h)".to_string(),
                "std = torch.exp(0.5 * logvar)".into(),
                "z = mu + torch.randn_like(std) * std".into(),
                "h = F.relu(self.fc3(z))".into(),
                "return torch.sigmoid(self.fc4(h)), mu, logvar".into(),
            ];
            Some(Known {
                what: "pytorch/examples' VAE (its outputs: the reconstruction, mu and logvar; the sampled noise changes values, not shapes)".into(),
                rule: "sigmoid(fc4(relu(fc3(mu + randn * exp(logvar / 2))))), mu, logvar with mu, logvar = fc21(h), fc22(h), h = relu(fc1(x.view(-1, in)))".into(),
                body,
                lists: Vec::new(),
                params: "x",
                ..Default::default()
            })
        }
        // Kim's sentence CNN (Shawn1993/cnn-text-classification-pytorch): parallel convs over
        // the embedded words, each max-pooled over time, concatenated.
        "CNN_Text" => {
            let convs = c.iter().find(|m| m.name == "convs")?;
            let Body::Container {
                children: branches, ..
            } = &convs.body
            else {
                return None;
            };
            let ok = exactly(
                c,
                &[
                    ("embed", "Embedding"),
                    ("convs", "ModuleList"),
                    ("dropout", "Dropout"),
                    ("fc1", "Linear"),
                ],
            ) && !branches.is_empty()
                && branches.iter().all(|b| b.class == "Conv2d");
            if !ok {
                return None;
            }
            let n = branches.len();
            let mut body = vec!["x = self.embed(x)".to_string(), "x = x.unsqueeze(1)".into()];
            for i in 0..n {
                body.push(format!("c{i} = F.relu(self.convs[{i}](x)).squeeze(3)"));
            }
            for i in 0..n {
                body.push(format!(
                    "p{i} = F.max_pool1d(c{i}, c{i}.size(2)).squeeze(2)"
                ));
            }
            let all: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
            body.push(format!("x = torch.cat([{}], 1)", all.join(", ")));
            body.push("x = self.dropout(x)".into());
            body.push("return self.fc1(x)".into());
            Some(Known {
                what: "Kim's CNN_Text (Shawn1993/cnn-text-classification-pytorch)".into(),
                rule: "fc1(dropout(cat([max_pool1d(relu(conv(embed(x).unsqueeze(1))).squeeze(3)) for conv in convs], 1)))".into(),
                body,
                lists: vec!["convs".into()],
                params: "x",
                ..Default::default()
            })
        }
        // The ModuleList U-Net (aladdinpersson's): `downs` each saved for a skip then pooled,
        // `ups` alternating a ConvTranspose2d and a block reading [skip, upsampled].
        "UNET" => {
            let list = |name: &str| -> Option<&Vec<Module>> {
                match &c.iter().find(|m| m.name == name)?.body {
                    Body::Container { children, .. } => Some(children),
                    Body::Leaf { .. } => None,
                }
            };
            let ok = exactly(
                c,
                &[
                    ("ups", "ModuleList"),
                    ("downs", "ModuleList"),
                    ("pool", "MaxPool2d"),
                    ("bottleneck", "*"),
                    ("final_conv", "Conv2d"),
                ],
            );
            if !ok {
                return None;
            }
            let (downs, ups) = (list("downs")?, list("ups")?);
            let paired = !downs.is_empty()
                && ups.len() == 2 * downs.len()
                && ups.iter().step_by(2).all(|u| u.class == "ConvTranspose2d");
            if !paired {
                return None;
            }
            let mut body = Vec::new();
            for i in 0..downs.len() {
                body.push(format!("x = self.downs[{i}](x)"));
                body.push(format!("s{i} = x"));
                body.push("x = self.pool(x)".into());
            }
            body.push("x = self.bottleneck(x)".into());
            for k in 0..downs.len() {
                let s = downs.len() - 1 - k;
                body.push(format!("x = self.ups[{}](x)", 2 * k));
                body.push(format!("if x.shape != s{s}.shape:"));
                body.push(format!("    x = F.interpolate(x, size=s{s}.shape[2:])"));
                body.push(format!("x = torch.cat((s{s}, x), dim=1)"));
                body.push(format!("x = self.ups[{}](x)", 2 * k + 1));
            }
            body.push("return self.final_conv(x)".into());
            Some(Known {
                what: "the ModuleList U-Net UNET (aladdinpersson's)".into(),
                rule: "each down block saved for a skip, then pool; bottleneck; each up: ConvTranspose2d, resized to the skip if they differ, cat([skip, x], 1), block; final_conv".into(),
                body,
                lists: vec!["ups".into(), "downs".into()],
                params: "x",
                ..Default::default()
            })
        }
        // torchvision's SqueezeNet: Fire concatenates its two expand branches.
        "Fire"
            if exactly(
                c,
                &[
                    ("squeeze", "Conv2d"),
                    ("squeeze_activation", "*"),
                    ("expand1x1", "Conv2d"),
                    ("expand1x1_activation", "*"),
                    ("expand3x3", "Conv2d"),
                    ("expand3x3_activation", "*"),
                ],
            ) =>
        {
            Some(known(
                "torchvision's SqueezeNet Fire",
                "cat([expand1x1_activation(expand1x1(s)), expand3x3_activation(expand3x3(s))], 1) where s = squeeze_activation(squeeze(x))",
                &[
                    "x = self.squeeze_activation(self.squeeze(x))",
                    "return torch.cat([self.expand1x1_activation(self.expand1x1(x)), self.expand3x3_activation(self.expand3x3(x))], 1)",
                ],
            ))
        }
        "SqueezeNet"
            if exactly(
                c,
                &[("features", "Sequential"), ("classifier", "Sequential")],
            ) =>
        {
            Some(known(
                "torchvision's SqueezeNet",
                "flatten(classifier(features(x)))",
                &[
                    "x = self.features(x)",
                    "x = self.classifier(x)",
                    "return torch.flatten(x, 1)",
                ],
            ))
        }
        // pytorch-CycleGAN-and-pix2pix: the ResNet generator's block, and the U-Net's level
        // (the outermost one, whose `model` starts with its conv, has no skip).
        "ResnetBlock" if exactly(c, &[("conv_block", "Sequential")]) => Some(known(
            "pix2pix/CycleGAN's ResnetBlock",
            "x + conv_block(x)",
            &["return x + self.conv_block(x)"],
        )),
        "UnetSkipConnectionBlock" if exactly(c, &[("model", "Sequential")]) => {
            let Body::Container {
                children: inner, ..
            } = &c[0].body
            else {
                return None;
            };
            let outermost = inner.first().is_some_and(|f| f.class == "Conv2d");
            Some(if outermost {
                known(
                    "pix2pix's UnetSkipConnectionBlock (the outermost: its `model` starts with its conv)",
                    "model(x)",
                    &["return self.model(x)"],
                )
            } else {
                known(
                    "pix2pix's UnetSkipConnectionBlock (an inner level: its `model` starts with an activation)",
                    "cat([x, model(x)], 1)",
                    &["return torch.cat([x, self.model(x)], 1)"],
                )
            })
        }
        // torchvision's GoogLeNet (eval: the auxiliary classifiers run only in training).
        "BasicConv2d" if exactly(c, &[("conv", "Conv2d"), ("bn", "BatchNorm2d")]) => Some(known(
            "torchvision's BasicConv2d (GoogLeNet, Inception)",
            "relu(bn(conv(x)))",
            &["x = self.conv(x)", "x = self.bn(x)", "return F.relu(x)"],
        )),
        "Inception"
            if exactly(
                c,
                &[
                    ("branch1", "*"),
                    ("branch2", "*"),
                    ("branch3", "*"),
                    ("branch4", "*"),
                ],
            ) =>
        {
            Some(known(
                "torchvision's GoogLeNet Inception",
                "cat([branch1(x), branch2(x), branch3(x), branch4(x)], 1)",
                &[
                    "b1 = self.branch1(x)",
                    "b2 = self.branch2(x)",
                    "b3 = self.branch3(x)",
                    "b4 = self.branch4(x)",
                    "return torch.cat([b1, b2, b3, b4], 1)",
                ],
            ))
        }
        "GoogLeNet" => {
            const MAIN: &[&str] = &[
                "conv1",
                "maxpool1",
                "conv2",
                "conv3",
                "maxpool2",
                "inception3a",
                "inception3b",
                "maxpool3",
                "inception4a",
                "inception4b",
                "inception4c",
                "inception4d",
                "inception4e",
                "maxpool4",
                "inception5a",
                "inception5b",
                "avgpool",
                "dropout",
                "fc",
            ];
            let aux = c.iter().filter(|m| m.name.starts_with("aux")).count();
            let ok = c.len() == MAIN.len() + aux
                && MAIN.iter().all(|n| has(n))
                && (aux == 0 || (has("aux1") && has("aux2") && aux == 2));
            if !ok {
                return None;
            }
            let mut body = Vec::new();
            for n in MAIN {
                body.push(format!("x = self.{n}(x)"));
                if *n == "avgpool" {
                    body.push("x = torch.flatten(x, 1)".into());
                }
            }
            body.push("return x".into());
            Some(Known {
                what: "torchvision's GoogLeNet (in eval mode, without transform_input: the printout shows neither; aux1/aux2 run only in training)".into(),
                rule: "fc(dropout(flatten(avgpool(inception5b(...(maxpool1(conv1(x)))...)))))".into(),
                body,
                lists: Vec::new(),
                params: "x",
                ..Default::default()
            })
        }
        // kuangliu/pytorch-cifar's pre-activation blocks: the shortcut (when printed) reads the
        // activated input; the sum is not activated.
        "PreActBlock" | "PreActBottleneck" => {
            let bottleneck = m.class == "PreActBottleneck";
            let mut want = vec![
                ("bn1", "BatchNorm2d"),
                ("conv1", "Conv2d"),
                ("bn2", "BatchNorm2d"),
                ("conv2", "Conv2d"),
            ];
            if bottleneck {
                want.extend([("bn3", "BatchNorm2d"), ("conv3", "Conv2d")]);
            }
            let shortcut = has("shortcut");
            if shortcut {
                want.push(("shortcut", "Sequential"));
            }
            if !exactly(c, &want) {
                return None;
            }
            let mut body = vec!["out = F.relu(self.bn1(x))"];
            body.push(if shortcut {
                "shortcut = self.shortcut(out)"
            } else {
                "shortcut = x"
            });
            body.push("out = self.conv1(out)");
            body.push("out = self.conv2(F.relu(self.bn2(out)))");
            if bottleneck {
                body.push("out = self.conv3(F.relu(self.bn3(out)))");
            }
            body.extend(["out += shortcut", "return out"]);
            Some(known(
                &format!("the CIFAR {} (kuangliu/pytorch-cifar)", m.class),
                if shortcut {
                    "convs(relu(bn1(x))) + shortcut(relu(bn1(x)))"
                } else {
                    "convs(relu(bn1(x))) + x"
                },
                &body,
            ))
        }
        "PreActResNet"
            if exactly(
                c,
                &[
                    ("conv1", "Conv2d"),
                    ("layer1", "Sequential"),
                    ("layer2", "Sequential"),
                    ("layer3", "Sequential"),
                    ("layer4", "Sequential"),
                    ("bn", "BatchNorm2d"),
                    ("linear", "Linear"),
                ],
            ) =>
        {
            Some(known(
                "the CIFAR PreActResNet (kuangliu/pytorch-cifar, with the final `bn`)",
                "linear(flatten(avg_pool2d(relu(bn(layer4(...(conv1(x))))), 4)))",
                &[
                    "out = self.conv1(x)",
                    "out = self.layer1(out)",
                    "out = self.layer2(out)",
                    "out = self.layer3(out)",
                    "out = self.layer4(out)",
                    "out = F.relu(self.bn(out))",
                    "out = F.avg_pool2d(out, 4)",
                    "out = torch.flatten(out, 1)",
                    "return self.linear(out)",
                ],
            ))
        }
        // The CIFAR Wide ResNet (meliketoy/wide-resnet.pytorch).
        "wide_basic"
            if exactly(
                c,
                &[
                    ("bn1", "BatchNorm2d"),
                    ("conv1", "Conv2d"),
                    ("dropout", "Dropout"),
                    ("bn2", "BatchNorm2d"),
                    ("conv2", "Conv2d"),
                    ("shortcut", "Sequential"),
                ],
            ) =>
        {
            Some(known(
                "the CIFAR Wide ResNet's wide_basic",
                "conv2(relu(bn2(dropout(conv1(relu(bn1(x))))))) + shortcut(x)",
                &[
                    "out = self.dropout(self.conv1(F.relu(self.bn1(x))))",
                    "out = self.conv2(F.relu(self.bn2(out)))",
                    "out += self.shortcut(x)",
                    "return out",
                ],
            ))
        }
        "Wide_ResNet"
            if exactly(
                c,
                &[
                    ("conv1", "Conv2d"),
                    ("layer1", "Sequential"),
                    ("layer2", "Sequential"),
                    ("layer3", "Sequential"),
                    ("bn1", "BatchNorm2d"),
                    ("linear", "Linear"),
                ],
            ) =>
        {
            Some(known(
                "the CIFAR Wide ResNet",
                "linear(flatten(avg_pool2d(relu(bn1(layer3(layer2(layer1(conv1(x)))))), 8)))",
                &[
                    "out = self.conv1(x)",
                    "out = self.layer1(out)",
                    "out = self.layer2(out)",
                    "out = self.layer3(out)",
                    "out = F.relu(self.bn1(out))",
                    "out = F.avg_pool2d(out, 8)",
                    "out = torch.flatten(out, 1)",
                    "return self.linear(out)",
                ],
            ))
        }
        // kuangliu/pytorch-cifar's MobileNet (v1).
        "Block"
            if parent == Some("Sequential")
                && exactly(
                    c,
                    &[
                        ("conv1", "Conv2d"),
                        ("bn1", "BatchNorm2d"),
                        ("conv2", "Conv2d"),
                        ("bn2", "BatchNorm2d"),
                    ],
                ) =>
        {
            Some(known(
                "the CIFAR MobileNet's Block (kuangliu/pytorch-cifar)",
                "relu(bn2(conv2(relu(bn1(conv1(x))))))",
                &[
                    "out = F.relu(self.bn1(self.conv1(x)))",
                    "out = F.relu(self.bn2(self.conv2(out)))",
                    "return out",
                ],
            ))
        }
        "MobileNet"
            if exactly(
                c,
                &[
                    ("conv1", "Conv2d"),
                    ("bn1", "BatchNorm2d"),
                    ("layers", "Sequential"),
                    ("linear", "Linear"),
                ],
            ) =>
        {
            Some(known(
                "the CIFAR MobileNet (kuangliu/pytorch-cifar)",
                "linear(flatten(avg_pool2d(layers(relu(bn1(conv1(x)))), 2)))",
                &[
                    "out = F.relu(self.bn1(self.conv1(x)))",
                    "out = self.layers(out)",
                    "out = F.avg_pool2d(out, 2)",
                    "out = torch.flatten(out, 1)",
                    "return self.linear(out)",
                ],
            ))
        }
        // milesial/Pytorch-UNet: `Up` reads the upsampled map and its skip, padding the first to
        // the second's size.
        "UNet"
            if exactly(
                c,
                &[
                    ("inc", "*"),
                    ("down1", "*"),
                    ("down2", "*"),
                    ("down3", "*"),
                    ("down4", "*"),
                    ("up1", "Up"),
                    ("up2", "Up"),
                    ("up3", "Up"),
                    ("up4", "Up"),
                    ("outc", "*"),
                ],
            ) =>
        {
            Some(known(
                "the U-Net of milesial/Pytorch-UNet",
                "x1 = inc(x), x2..x5 = down1..down4, then up1(x5, x4), up2(., x3), up3(., x2), up4(., x1), outc",
                &[
                    "x1 = self.inc(x)",
                    "x2 = self.down1(x1)",
                    "x3 = self.down2(x2)",
                    "x4 = self.down3(x3)",
                    "x5 = self.down4(x4)",
                    "x = self.up1(x5, x4)",
                    "x = self.up2(x, x3)",
                    "x = self.up3(x, x2)",
                    "x = self.up4(x, x1)",
                    "return self.outc(x)",
                ],
            ))
        }
        "Up" if parent == Some("UNet")
            && exactly(c, &[("up", "*"), ("conv", "*")])
            && matches!(class_of(c, "up"), Some("Upsample" | "ConvTranspose2d")) =>
        {
            let mut k = known(
                "milesial/Pytorch-UNet's Up",
                "conv(cat([x2, pad(up(x1) to x2's size)], 1))",
                &[
                    "x1 = self.up(x1)",
                    "dy = x2.shape[2] - x1.shape[2]",
                    "dx = x2.shape[3] - x1.shape[3]",
                    "x1 = F.pad(x1, [dx // 2, dx - dx // 2, dy // 2, dy - dy // 2])",
                    "x = torch.cat([x2, x1], dim=1)",
                    "return self.conv(x)",
                ],
            );
            k.params = "x1, x2";
            Some(k)
        }
        // The PyTorch tutorials' and examples' `Net`s: activations and pools are functional.
        "Net" => TUTORIAL_NETS
            .iter()
            .find(|net| exactly(c, net.children))
            .map(|net| known(net.what, net.rule, &net.body.concat())),
        _ => None,
    }
}

/// A block of parallel branches known by its class and children: what its forward computes.
struct Branches {
    class: &'static str,
    children: &'static [&'static str],
    what: &'static str,
    rule: &'static str,
    body: &'static [&'static str],
}

/// Inception v3's blocks (torchvision's `Inception3`): BasicConv2d branches side by side,
/// concatenated on the channels; their pools are functional.
const INCEPTION3_BLOCKS: &[Branches] = &[
    Branches {
        class: "InceptionA",
        children: &[
            "branch1x1",
            "branch5x5_1",
            "branch5x5_2",
            "branch3x3dbl_1",
            "branch3x3dbl_2",
            "branch3x3dbl_3",
            "branch_pool",
        ],
        what: "torchvision's Inception v3 InceptionA",
        rule: "cat([1x1, 5x5, double 3x3, branch_pool(avg_pool2d(x, 3, 1, 1))], 1)",
        body: &[
            "a = self.branch1x1(x)",
            "b = self.branch5x5_2(self.branch5x5_1(x))",
            "c = self.branch3x3dbl_1(x)",
            "c = self.branch3x3dbl_3(self.branch3x3dbl_2(c))",
            "d = self.branch_pool(F.avg_pool2d(x, kernel_size=3, stride=1, padding=1))",
            "return torch.cat([a, b, c, d], 1)",
        ],
    },
    Branches {
        class: "InceptionB",
        children: &[
            "branch3x3",
            "branch3x3dbl_1",
            "branch3x3dbl_2",
            "branch3x3dbl_3",
        ],
        what: "torchvision's Inception v3 InceptionB",
        rule: "cat([3x3, double 3x3, max_pool2d(x, 3, 2)], 1)",
        body: &[
            "a = self.branch3x3(x)",
            "b = self.branch3x3dbl_1(x)",
            "b = self.branch3x3dbl_3(self.branch3x3dbl_2(b))",
            "c = F.max_pool2d(x, kernel_size=3, stride=2)",
            "return torch.cat([a, b, c], 1)",
        ],
    },
    Branches {
        class: "InceptionC",
        children: &[
            "branch1x1",
            "branch7x7_1",
            "branch7x7_2",
            "branch7x7_3",
            "branch7x7dbl_1",
            "branch7x7dbl_2",
            "branch7x7dbl_3",
            "branch7x7dbl_4",
            "branch7x7dbl_5",
            "branch_pool",
        ],
        what: "torchvision's Inception v3 InceptionC",
        rule: "cat([1x1, 7x7, double 7x7, branch_pool(avg_pool2d(x, 3, 1, 1))], 1)",
        body: &[
            "a = self.branch1x1(x)",
            "b = self.branch7x7_1(x)",
            "b = self.branch7x7_3(self.branch7x7_2(b))",
            "c = self.branch7x7dbl_1(x)",
            "c = self.branch7x7dbl_3(self.branch7x7dbl_2(c))",
            "c = self.branch7x7dbl_5(self.branch7x7dbl_4(c))",
            "d = self.branch_pool(F.avg_pool2d(x, kernel_size=3, stride=1, padding=1))",
            "return torch.cat([a, b, c, d], 1)",
        ],
    },
    Branches {
        class: "InceptionD",
        children: &[
            "branch3x3_1",
            "branch3x3_2",
            "branch7x7x3_1",
            "branch7x7x3_2",
            "branch7x7x3_3",
            "branch7x7x3_4",
        ],
        what: "torchvision's Inception v3 InceptionD",
        rule: "cat([3x3, 7x7x3, max_pool2d(x, 3, 2)], 1)",
        body: &[
            "a = self.branch3x3_2(self.branch3x3_1(x))",
            "b = self.branch7x7x3_1(x)",
            "b = self.branch7x7x3_3(self.branch7x7x3_2(b))",
            "b = self.branch7x7x3_4(b)",
            "c = F.max_pool2d(x, kernel_size=3, stride=2)",
            "return torch.cat([a, b, c], 1)",
        ],
    },
    Branches {
        class: "InceptionE",
        children: &[
            "branch1x1",
            "branch3x3_1",
            "branch3x3_2a",
            "branch3x3_2b",
            "branch3x3dbl_1",
            "branch3x3dbl_2",
            "branch3x3dbl_3a",
            "branch3x3dbl_3b",
            "branch_pool",
        ],
        what: "torchvision's Inception v3 InceptionE",
        rule: "cat([1x1, cat([3x3_2a, 3x3_2b] of 3x3_1), cat([3x3dbl_3a, 3x3dbl_3b] of double 3x3), branch_pool(avg_pool2d(x, 3, 1, 1))], 1)",
        body: &[
            "a = self.branch1x1(x)",
            "b = self.branch3x3_1(x)",
            "b = torch.cat([self.branch3x3_2a(b), self.branch3x3_2b(b)], 1)",
            "c = self.branch3x3dbl_2(self.branch3x3dbl_1(x))",
            "c = torch.cat([self.branch3x3dbl_3a(c), self.branch3x3dbl_3b(c)], 1)",
            "d = self.branch_pool(F.avg_pool2d(x, kernel_size=3, stride=1, padding=1))",
            "return torch.cat([a, b, c, d], 1)",
        ],
    },
    Branches {
        class: "InceptionAux",
        children: &["conv0", "conv1", "fc"],
        what: "torchvision's Inception v3 InceptionAux (run only in training)",
        rule: "fc(flatten(adaptive_avg_pool2d(conv1(conv0(avg_pool2d(x, 5, 3))), 1)))",
        body: &[
            "x = F.avg_pool2d(x, kernel_size=5, stride=3)",
            "x = self.conv1(self.conv0(x))",
            "x = F.adaptive_avg_pool2d(x, (1, 1))",
            "x = torch.flatten(x, 1)",
            "return self.fc(x)",
        ],
    },
    Branches {
        class: "InceptionAux",
        children: &["conv", "fc1", "fc2", "dropout"],
        what: "torchvision's GoogLeNet InceptionAux (run only in training)",
        rule: "fc2(dropout(relu(fc1(flatten(conv(adaptive_avg_pool2d(x, 4)))))))",
        body: &[
            "x = self.conv(F.adaptive_avg_pool2d(x, (4, 4)))",
            "x = torch.flatten(x, 1)",
            "x = F.relu(self.fc1(x))",
            "return self.fc2(self.dropout(x))",
        ],
    },
];

/// The main path of torchvision's `Inception3`, in order (`AuxLogits`, printed between
/// `Mixed_6e` and `Mixed_7a`, runs only in training).
const INCEPTION3: &[&str] = &[
    "Conv2d_1a_3x3",
    "Conv2d_2a_3x3",
    "Conv2d_2b_3x3",
    "maxpool1",
    "Conv2d_3b_1x1",
    "Conv2d_4a_3x3",
    "maxpool2",
    "Mixed_5b",
    "Mixed_5c",
    "Mixed_5d",
    "Mixed_6a",
    "Mixed_6b",
    "Mixed_6c",
    "Mixed_6d",
    "Mixed_6e",
    "Mixed_7a",
    "Mixed_7b",
    "Mixed_7c",
    "avgpool",
    "dropout",
    "fc",
];

/// Whether the children are exactly `names`, of any classes.
fn named(children: &[Module], names: &[&str]) -> bool {
    children.len() == names.len() && names.iter().all(|n| class_of(children, n).is_some())
}

/// Whether the printed child `name` is an empty `Sequential()`: the identity.
fn empty_sequential(children: &[Module], name: &str) -> bool {
    children.iter().any(|c| {
        c.name == name
            && c.class == "Sequential"
            && match &c.body {
                Body::Leaf { args } => args.trim().is_empty(),
                Body::Container { children, extra } => children.is_empty() && extra.is_empty(),
            }
    })
}

/// torchvision's classification models and blocks past ResNet, DenseNet, MobileNetV2, VGG,
/// SqueezeNet and GoogLeNet: MobileNetV3, ShuffleNetV2, Inception v3, MNASNet, RegNet,
/// EfficientNet (V1 and V2) and ConvNeXt, and the SqueezeExcitation several of them use.
fn torchvision_more(m: &Module) -> Option<Known> {
    let Body::Container { children: c, .. } = &m.body else {
        return None;
    };
    let class = m.class.as_str();
    if let Some(b) = INCEPTION3_BLOCKS
        .iter()
        .find(|b| b.class == class && named(c, b.children))
    {
        return Some(known(b.what, b.rule, b.body));
    }
    match class {
        // The scale multiplies the block's input (torchvision.ops.SqueezeExcitation).
        "SqueezeExcitation"
            if exactly(
                c,
                &[
                    ("avgpool", "AdaptiveAvgPool2d"),
                    ("fc1", "Conv2d"),
                    ("activation", "*"),
                    ("fc2", "Conv2d"),
                    ("scale_activation", "*"),
                ],
            ) =>
        {
            Some(known(
                "torchvision's SqueezeExcitation",
                "scale_activation(fc2(activation(fc1(avgpool(x))))) * x",
                &[
                    "s = self.fc1(self.avgpool(x))",
                    "s = self.scale_activation(self.fc2(self.activation(s)))",
                    "return s * x",
                ],
            ))
        }
        // MobileNetV3's block: MobileNetV2's rule, its layers under `block`.
        "InvertedResidual" if exactly(c, &[("block", "Sequential")]) => {
            let (residual, why) = adds_input(m)?;
            let what = format!("torchvision's MobileNetV3 InvertedResidual ({why})");
            Some(if residual {
                known(
                    &what,
                    "block(x) + x",
                    &["y = self.block(x)", "y += x", "return y"],
                )
            } else {
                known(&what, "block(x)", &["return self.block(x)"])
            })
        }
        // EfficientNet's blocks: stochastic depth (the identity in eval) on the residual path.
        "MBConv" | "FusedMBConv"
            if exactly(
                c,
                &[
                    ("block", "Sequential"),
                    ("stochastic_depth", "StochasticDepth"),
                ],
            ) =>
        {
            let (residual, why) = adds_input(m)?;
            let what = format!("torchvision's EfficientNet {class} ({why})");
            Some(if residual {
                known(
                    &what,
                    "stochastic_depth(block(x)) + x",
                    &[
                        "y = self.block(x)",
                        "y = self.stochastic_depth(y)",
                        "y += x",
                        "return y",
                    ],
                )
            } else {
                known(&what, "block(x)", &["return self.block(x)"])
            })
        }
        // MNASNet's block: the same rule, its layers under `layers`.
        "_InvertedResidual" if exactly(c, &[("layers", "Sequential")]) => {
            let (residual, why) = adds_input(m)?;
            let what = format!("torchvision's MNASNet _InvertedResidual ({why})");
            Some(if residual {
                known(&what, "layers(x) + x", &["return self.layers(x) + x"])
            } else {
                known(&what, "layers(x)", &["return self.layers(x)"])
            })
        }
        "MNASNet" if exactly(c, &[("layers", "Sequential"), ("classifier", "Sequential")]) => {
            Some(known(
                "torchvision's MNASNet",
                "classifier(mean(layers(x), [2, 3]))",
                &[
                    "x = self.layers(x)",
                    "x = x.mean([2, 3])",
                    "return self.classifier(x)",
                ],
            ))
        }
        // ShuffleNetV2's block: with stride 1 (`branch1` printed empty) half the channels go
        // through `branch2` and the other half past it; strided, both branches read the input.
        // Then the channels are shuffled in two groups.
        "InvertedResidual"
            if exactly(c, &[("branch1", "Sequential"), ("branch2", "Sequential")]) =>
        {
            let split = empty_sequential(c, "branch1");
            let mut body = if split {
                vec![
                    "a, b = x.chunk(2, dim=1)",
                    "y = torch.cat((a, self.branch2(b)), dim=1)",
                ]
            } else {
                vec!["y = torch.cat((self.branch1(x), self.branch2(x)), dim=1)"]
            };
            body.extend([
                "n, channels, h, w = y.size()",
                "y = y.view(n, 2, channels // 2, h, w)",
                "y = torch.transpose(y, 1, 2).contiguous()",
                "return y.view(n, channels, h, w)",
            ]);
            Some(known(
                if split {
                    "torchvision's ShuffleNetV2 InvertedResidual (stride 1: `branch1` is empty)"
                } else {
                    "torchvision's ShuffleNetV2 InvertedResidual (strided: both branches)"
                },
                if split {
                    "channel_shuffle(cat((x1, branch2(x2)), 1), 2) where x1, x2 = x.chunk(2, 1)"
                } else {
                    "channel_shuffle(cat((branch1(x), branch2(x)), 1), 2)"
                },
                &body,
            ))
        }
        "ShuffleNetV2"
            if named(
                c,
                &[
                    "conv1", "maxpool", "stage2", "stage3", "stage4", "conv5", "fc",
                ],
            ) =>
        {
            Some(known(
                "torchvision's ShuffleNetV2",
                "fc(mean(conv5(stage4(stage3(stage2(maxpool(conv1(x)))))), [2, 3]))",
                &[
                    "x = self.maxpool(self.conv1(x))",
                    "x = self.stage4(self.stage3(self.stage2(x)))",
                    "x = self.conv5(x)",
                    "x = x.mean([2, 3])",
                    "return self.fc(x)",
                ],
            ))
        }
        // RegNet: a projection on the shortcut when the block strides or changes the width.
        "ResBottleneckBlock" if named(c, &["proj", "f", "activation"]) => Some(known(
            "torchvision's RegNet ResBottleneckBlock",
            "activation(proj(x) + f(x))",
            &["x = self.proj(x) + self.f(x)", "return self.activation(x)"],
        )),
        "ResBottleneckBlock" if named(c, &["f", "activation"]) => Some(known(
            "torchvision's RegNet ResBottleneckBlock (no projection: the input itself)",
            "activation(x + f(x))",
            &["x = x + self.f(x)", "return self.activation(x)"],
        )),
        "RegNet" if named(c, &["stem", "trunk_output", "avgpool", "fc"]) => Some(known(
            "torchvision's RegNet",
            "fc(flatten(avgpool(trunk_output(stem(x)))))",
            &[
                "x = self.trunk_output(self.stem(x))",
                "x = self.avgpool(x)",
                "x = torch.flatten(x, 1)",
                "return self.fc(x)",
            ],
        )),
        // ConvNeXt's block: its `block` written out, since the two `Permute()` in it print no
        // dims (channels last for the LayerNorm and Linears, then back); `layer_scale`, a
        // parameter torch does not print, scales each channel.
        "CNBlock"
            if exactly(
                c,
                &[
                    ("block", "Sequential"),
                    ("stochastic_depth", "StochasticDepth"),
                ],
            ) =>
        {
            let block = c.iter().find(|m| m.name == "block")?;
            let Body::Container { children: b, .. } = &block.body else {
                return None;
            };
            const LAYERS: &[&str] = &[
                "Conv2d",
                "Permute",
                "LayerNorm",
                "Linear",
                "GELU",
                "Linear",
                "Permute",
            ];
            let ok = b.len() == LAYERS.len()
                && b.iter()
                    .zip(LAYERS)
                    .enumerate()
                    .all(|(i, (m, class))| m.name == i.to_string() && m.class == *class);
            let mut v = Vec::new();
            convs(block, &mut v);
            let dim = v.first()?.channels.1;
            if !ok {
                return None;
            }
            Some(Known {
                what: "torchvision's ConvNeXt CNBlock".into(),
                rule: "x + stochastic_depth(layer_scale * permute(block[5](block[4](block[3](block[2](permute(block[0](x))))))))".into(),
                body: [
                    "y = self.block[0](x)",
                    "y = y.permute(0, 2, 3, 1)",
                    "y = self.block[2](y)",
                    "y = self.block[5](self.block[4](self.block[3](y)))",
                    "y = y.permute(0, 3, 1, 2)",
                    "y = self.layer_scale(y)",
                    "y = self.stochastic_depth(y)",
                    "y += x",
                    "return y",
                ]
                .map(String::from)
                .to_vec(),
                lists: vec!["block".into()],
                params: "x",
                hidden: vec![(
                    "layer_scale".into(),
                    format!("nn.Conv2d({dim}, {dim}, 1, groups={dim}, bias=False)"),
                    format!(
                        "layer_scale: CNBlock multiplies each of the {dim} channels by a learned parameter of shape ({dim}, 1, 1), which torch does not print; built as the same product, a 1x1 depthwise convolution without bias (copy that parameter into its weight)"
                    ),
                )],
                placeholders: vec!["block.1".into(), "block.6".into()],
            })
        }
        // Its classifier holds the flatten.
        "ConvNeXt" if named(c, &["features", "avgpool", "classifier"]) => Some(known(
            "torchvision's ConvNeXt",
            "classifier(avgpool(features(x)))",
            &[
                "x = self.features(x)",
                "x = self.avgpool(x)",
                "return self.classifier(x)",
            ],
        )),
        "Inception3" => {
            let aux = usize::from(class_of(c, "AuxLogits").is_some());
            let ok = c.len() == INCEPTION3.len() + aux
                && INCEPTION3.iter().all(|n| class_of(c, n).is_some());
            if !ok {
                return None;
            }
            let mut body = Vec::new();
            for n in INCEPTION3 {
                if *n == "fc" {
                    body.push("x = torch.flatten(x, 1)".to_string());
                }
                body.push(format!("x = self.{n}(x)"));
            }
            body.push("return x".into());
            Some(Known {
                what: "torchvision's Inception3 (in eval mode, with transform_input=False, Inception3's default: `inception_v3(weights=...)` turns it on, which rescales the input's channels; the printout shows neither, and AuxLogits runs only in training)".into(),
                rule: "fc(flatten(dropout(avgpool(Mixed_7c(...(Conv2d_1a_3x3(x))...)))))".into(),
                body,
                lists: Vec::new(),
                params: "x",
                ..Default::default()
            })
        }
        _ => None,
    }
}

/// torchvision's BasicBlock or Bottleneck — or a block of any class with exactly their children
/// (2-D or 3-D; the shortcut named `downsample`, `identity_downsample` or `shortcut`), whose
/// forward is then stated as assumed from that shape.
fn torchvision_block(m: &Module) -> Option<Known> {
    let Body::Container { children: c, .. } = &m.body else {
        return None;
    };
    let is = |name: &str, classes: &[&str]| class_of(c, name).is_some_and(|k| classes.contains(&k));
    let conv = &["Conv2d", "Conv3d"][..];
    let bn = &["BatchNorm2d", "BatchNorm3d"][..];
    let shortcut = ["downsample", "identity_downsample", "shortcut"]
        .into_iter()
        .find(|n| class_of(c, n).is_some());
    let n = c.len() - usize::from(shortcut.is_some());
    let common = is("conv1", conv)
        && is("bn1", bn)
        && is("conv2", conv)
        && is("bn2", bn)
        && is("relu", &["ReLU"]);
    if !common {
        return None;
    }
    let bottleneck = n == 7 && is("conv3", conv) && is("bn3", bn);
    if !(bottleneck || n == 5) {
        return None;
    }
    let mut body = vec![
        "identity = x",
        "out = self.conv1(x)",
        "out = self.bn1(out)",
        "out = self.relu(out)",
        "out = self.conv2(out)",
        "out = self.bn2(out)",
    ];
    if bottleneck {
        body.extend([
            "out = self.relu(out)",
            "out = self.conv3(out)",
            "out = self.bn3(out)",
        ]);
    }
    let call = shortcut.map(|s| format!("identity = self.{s}(x)"));
    if let Some(call) = &call {
        body.push(call);
    }
    body.extend(["out += identity", "out = self.relu(out)", "return out"]);
    let name = if bottleneck {
        "Bottleneck"
    } else {
        "BasicBlock"
    };
    let main = if bottleneck {
        "relu(bn3(conv3(relu(bn2(conv2(relu(bn1(conv1(x)))))))))"
    } else {
        "relu(bn2(conv2(relu(bn1(conv1(x))))))"
    };
    let rule = match shortcut {
        Some(s) => format!("relu({} + {s}(x))", &main[5..main.len() - 1]),
        None => format!("relu({} + x)", &main[5..main.len() - 1]),
    };
    let what = if m.class == name && matches!(shortcut, None | Some("downsample")) {
        format!("torchvision's {name}")
    } else {
        format!(
            "torchvision's {name}, assumed: `{}` has exactly its children (conv, norm, one `relu` used after each norm and after the add{})",
            m.class,
            shortcut.map_or(String::new(), |s| format!(", `{s}` on the shortcut"))
        )
    };
    Some(Known {
        what,
        rule,
        body: body.into_iter().map(str::to_string).collect(),
        lists: Vec::new(),
        params: "x",
        ..Default::default()
    })
}

/// Whether a module of `class` is printed anywhere under `m`.
fn printed_class_under(m: &Module, class: &str) -> bool {
    match &m.body {
        Body::Leaf { .. } => false,
        Body::Container { children, .. } => children
            .iter()
            .any(|c| c.class == class || printed_class_under(c, class)),
    }
}
