//! The printed readers against the corpus's real printouts and summaries, the seed that
//! pastes one, hostile inputs (cut short, nested deep, 1 MB lines, huge repeats, arbitrary
//! mutations) and snapshots of one printout's graph and one summary's derived table.

use std::time::{Duration, Instant};

use proptest::prelude::*;

use crate::model::code::Options;
use crate::model::graph::{Flag, Graph, Node};
use crate::model::op::Op;
use crate::model::{Model, Origin, read};

fn corpus(name: &str) -> String {
    let path = format!("{}/tests/models/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The `# padlab-input:` header as `--input` gives it.
fn options(text: &str) -> Options {
    let input = text
        .lines()
        .find_map(|l| l.strip_prefix("# padlab-input:"))
        .map(|s| crate::forms::compact::parse_shape(s.trim()).expect("a shape"));
    Options { input, model: None }
}

/// Reads `text` with the input `--input` would give (no header needed).
fn read_with(text: &str, input: &[i64]) -> Model {
    let options = Options {
        input: Some(input.to_vec()),
        model: None,
    };
    read(text, &options).unwrap_or_else(|e| panic!("{e}"))
}

/// The node named `name`.
fn node<'g>(g: &'g Graph, name: &str) -> &'g Node {
    g.nodes
        .iter()
        .find(|n| n.name == name)
        .unwrap_or_else(|| panic!("no node `{name}`"))
}

/// The graph's node names, in order.
fn names(g: &Graph) -> Vec<&str> {
    g.nodes.iter().map(|n| n.name.as_str()).collect()
}

fn read_corpus(name: &str) -> Model {
    let text = corpus(name);
    read(&text, &options(&text)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The table as rows of text: line, name, kind, output, pads, flags, error.
fn table(g: &Graph) -> String {
    let mut out = String::new();
    for n in &g.nodes {
        let shape = n
            .shape()
            .map_or("?".to_string(), |s| format!("{:?}", &s[1..]));
        out.push_str(&format!(
            "{:>3} {} {} -> {shape}",
            n.source.line, n.name, n.kind
        ));
        if let Op::Conv(crate::model::op::Conv { spec, .. }) | Op::Pool(spec) = &n.op {
            out.push_str(&format!(
                " k {:?} s {:?} {:?}",
                spec.kernel, spec.stride, spec.padding
            ));
        }
        if let Some(a) = &n.inferred.answer {
            out.push_str(&format!(" pads {:?}/{:?}", a.before(), a.after()));
        }
        for f in &n.inferred.flags {
            out.push_str(&format!(" [{f}]"));
        }
        if let Some(e) = &n.inferred.error {
            out.push_str(&format!(" ERROR {e}"));
        }
        out.push('\n');
    }
    for note in &g.notes {
        out.push_str(&format!("note: {note}\n"));
    }
    out
}

/// Every printout: read, checked, rebuilt as code; its first error (where the printed order
/// is not the forward) on the row expected; its parameter count torch's.
#[test]
fn every_printout_reads() {
    // (file, the first row with an error, torch's parameter count): none, as every printout's
    // forward is known or its printed order (with a flatten before a classifier).
    let cases: &[(&str, Option<&str>, i64)] = &[
        ("printed_alexnet.txt", None, 61_100_840),
        ("printed_c3d.txt", None, 78_409_573),
        ("printed_cifar_resnet18.txt", None, 11_173_962),
        ("printed_conv_autoencoder_mnist.txt", None, 5_729),
        ("printed_d2l_nin.txt", None, 1_992_166),
        ("printed_d2l_resnet.txt", None, 11_178_378),
        ("printed_dcgan_discriminator.txt", None, 2_765_568),
        ("printed_dcgan_generator.txt", None, 3_576_704),
        ("printed_densenet121.txt", None, 7_978_856),
        ("printed_lenet5_classic.txt", None, 61_706),
        ("printed_mobilenet_v2.txt", None, 3_504_872),
        ("printed_patchgan_discriminator.txt", None, 2_768_705),
        ("printed_quickstart_fashion.txt", None, 669_706),
        ("printed_resnet18.txt", None, 11_689_512),
        ("printed_textcnn_kim.txt", None, 2_856_326),
        ("printed_unet_modulelist.txt", None, 31_037_633),
        ("printed_vgg11.txt", None, 132_863_336),
        ("printed_squeezenet.txt", None, 1_248_424),
        ("printed_pix2pix_unet_generator.txt", None, 54_413_955),
        ("printed_cyclegan_resnet_generator.txt", None, 7_837_699),
        ("printed_resnet152.txt", None, 60_192_808),
        ("printed_resnet3d.txt", None, 14_604_624),
        ("printed_googlenet.txt", None, 13_385_816),
        ("printed_cifar_preact_resnet.txt", None, 11_172_170),
        ("printed_cifar_wide_resnet.txt", None, 2_751_146),
        ("printed_cifar_mobilenet.txt", None, 3_217_226),
        ("printed_unet_bilinear.txt", None, 17_263_042),
        ("printed_tutorial_cifar10.txt", None, 62_006),
        ("printed_tutorial_nn_lenet.txt", None, 61_706),
        ("printed_examples_mnist.txt", None, 1_199_882),
        ("printed_resnet50.txt", None, 25_557_032),
        ("printed_cifar_resnet50.txt", None, 23_520_842),
        ("printed_vgg16_bn.txt", None, 135_088_392),
        ("printed_mobilenet_v2_normact.txt", None, 3_504_872),
        ("printed_tv_mobilenet_v3_small.txt", None, 2_542_856),
        ("printed_tv_shufflenet_v2_x0_5.txt", None, 1_366_792),
        ("printed_tv_inception_v3.txt", None, 27_161_264),
        ("printed_tv_mnasnet0_5.txt", None, 2_218_512),
        ("printed_tv_regnet_y_400mf.txt", None, 4_344_144),
        ("printed_tv_efficientnet_b0.txt", None, 5_288_548),
        ("printed_tv_efficientnet_v2_s.txt", None, 21_458_488),
        ("printed_tv_convnext_tiny.txt", None, 28_589_128),
        ("printed_softmax_no_dim.txt", None, 18_378),
        ("printed_log_softmax_frames.txt", None, 26_252),
        ("printed_audio_m5.txt", None, 26_915),
        ("printed_examples_vae.txt", None, 652_824),
    ];
    let files: Vec<String> =
        std::fs::read_dir(format!("{}/tests/models", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|f| f.starts_with("printed_") && f.ends_with(".txt"))
            .collect();
    assert_eq!(
        files.len(),
        cases.len(),
        "a printout without its expectation"
    );
    for &(file, breaks, params) in cases {
        let m = read_corpus(file);
        let g = &m.graph;
        g.check().unwrap();
        assert_eq!(
            g.first_error().map(|(id, _)| g.node(id).name.as_str()),
            breaks,
            "{file}:\n{}",
            table(g)
        );
        assert_eq!(m.params, Some(params), "{file}");
        let Origin::Code { code, build, .. } = &m.origin else {
            panic!("{file}: a printout rebuilds as code");
        };
        assert_eq!(build, "model");
        assert!(code.contains("\nmodel = "), "{file}");
        // Rows: the printed line and text (a forward's own operation: its module's line and the
        // statement of the forward padlab ran); a module that is not a Sequential says so.
        let text = corpus(file);
        let lines: Vec<&str> = text.lines().collect();
        for n in g.nodes.iter().filter(|n| !matches!(n.op, Op::Input)) {
            let printed = lines[n.source.line - 1];
            assert!(
                printed.contains(&n.source.text)
                    || (printed.ends_with('(')
                        && code.contains(&format!("        {}\n", n.source.text))),
                "{file}: {} at line {}: {}",
                n.name,
                n.source.line,
                n.source.text
            );
        }
        let root_sequential = lines
            .iter()
            .find(|l| l.ends_with('('))
            .is_some_and(|l| *l == "Sequential(");
        // (A softmax printed with `dim=None` says the dim torch takes, in any module.)
        let assumed = g
            .nodes
            .iter()
            .filter(|n| {
                n.inferred
                    .flags
                    .iter()
                    .any(|f| matches!(f, Flag::Assumed(a) if !a.contains("printed `dim=None`")))
            })
            .count();
        if root_sequential && file != "printed_d2l_resnet.txt" {
            assert_eq!(assumed, 0, "{file}");
        } else {
            assert!(assumed > 0, "{file}");
        }
    }
}

/// The rows of a known forward: a residual add reads two inputs, each row names the forward.
#[test]
fn a_known_forward_adds_the_residual_and_says_whose_it_is() {
    let m = read_corpus("printed_resnet18.txt");
    assert!(m.graph.first_error().is_none(), "{}", table(&m.graph));
    let add = node(&m.graph, "layer2.0.add");
    assert_eq!(add.inputs.len(), 2);
    // On the block's printed line, as the statement padlab ran.
    assert_eq!(add.source.line, 25);
    assert_eq!(add.source.text, "out += identity");
    let said = add.inferred.flags.iter().any(|f| {
        f.to_string()
            .contains("the forward of torchvision's BasicBlock for `layer2.0` (BasicBlock)")
    });
    assert!(said, "{:?}", add.inferred.flags);
    assert!(
        m.graph.notes[0].contains("BasicBlock x8, ResNet"),
        "{}",
        m.graph.notes[0]
    );
    // The flatten before `fc` is the forward's own.
    let flat = m.graph.nodes.iter().find(|n| n.kind == "flatten").unwrap();
    assert_eq!(flat.shape(), Some(&vec![2, 512]));
}

/// Where known forwards join and branch, torch's shapes (as torch's own run records them).
#[test]
fn known_forwards_join_as_torch_does() {
    let shapes = |file: &str, kind: &str| -> Vec<(String, Vec<i64>)> {
        read_corpus(file)
            .graph
            .nodes
            .iter()
            .filter(|n| n.kind == kind)
            .map(|n| (n.name.clone(), n.shape().unwrap()[1..].to_vec()))
            .collect()
    };
    // DenseNet: each block's output concatenates its input with every layer's growth.
    let blocks: Vec<Vec<i64>> = shapes("printed_densenet121.txt", "cat")
        .into_iter()
        .filter(|(name, _)| name.matches('.').count() == 2)
        .map(|(_, s)| s)
        .collect();
    assert_eq!(
        blocks,
        [
            vec![256, 56, 56],
            vec![512, 28, 28],
            vec![1024, 14, 14],
            vec![1024, 7, 7]
        ]
    );
    // MobileNetV2: an add in each of the ten blocks that keep their shape.
    assert_eq!(shapes("printed_mobilenet_v2.txt", "add").len(), 10);
    // The ModuleList U-Net at 90x90: resized where an odd size was floored, then joined.
    let unet: Vec<Vec<i64>> = shapes("printed_unet_modulelist.txt", "interpolate")
        .into_iter()
        .chain(shapes("printed_unet_modulelist.txt", "cat"))
        .map(|(_, s)| s)
        .collect();
    assert_eq!(
        unet,
        [
            vec![512, 11, 11],
            vec![128, 45, 45],
            vec![1024, 11, 11],
            vec![512, 22, 22],
            vec![256, 45, 45],
            vec![128, 90, 90]
        ]
    );
    // SqueezeNet's Fire: its two expand branches side by side.
    assert_eq!(
        shapes("printed_squeezenet.txt", "cat")[0],
        ("features.3.cat".to_string(), vec![128, 54, 54])
    );
}

/// torchvision's other classification models: the joins their known forwards make, counted as
/// torch's own run of each model counts them (truth_torch.py: `mul`, `add`/`add_`, `cat`,
/// `chunk`, `transpose`), and the blocks' outputs where they concatenate.
#[test]
fn torchvisions_other_blocks_join_as_torch_does() {
    let count = |g: &Graph, kind: &str| g.nodes.iter().filter(|n| n.kind == kind).count();
    let cases: &[(&str, &[(&str, usize)])] = &[
        // SqueezeExcitation: its scale times its input; InvertedResidual: a residual in the six
        // blocks of stride 1 and as many channels in as out.
        (
            "printed_tv_mobilenet_v3_small.txt",
            &[("mul", 9), ("add", 6)],
        ),
        // 13 blocks of stride 1 split their input, 3 strided ones run both branches; each
        // shuffles its channels.
        (
            "printed_tv_shufflenet_v2_x0_5.txt",
            &[("chunk", 13), ("cat", 16), ("transpose", 16), ("view", 32)],
        ),
        ("printed_tv_mnasnet0_5.txt", &[("add", 10)]),
        // Every ResBottleneckBlock adds (a projection or the input), every one has an SE.
        ("printed_tv_regnet_y_400mf.txt", &[("mul", 16), ("add", 16)]),
        // StochasticDepth runs (the identity) where the block adds its input.
        (
            "printed_tv_efficientnet_b0.txt",
            &[("mul", 16), ("add", 9), ("Identity", 9)],
        ),
        (
            "printed_tv_efficientnet_v2_s.txt",
            &[("mul", 30), ("add", 35), ("Identity", 35)],
        ),
        (
            "printed_tv_inception_v3.txt",
            &[("cat", 15), ("avg_pool2d", 9)],
        ),
        // CNBlock: channels last and back around its LayerNorm and Linears (LayerNorm2d too),
        // its layer_scale (torch's `mul`), its residual.
        (
            "printed_tv_convnext_tiny.txt",
            &[
                ("permute", 46),
                ("LayerNorm", 23),
                ("add", 18),
                ("Identity", 18),
            ],
        ),
    ];
    for (file, kinds) in cases {
        let m = read_corpus(file);
        for (kind, n) in *kinds {
            assert_eq!(
                count(&m.graph, kind),
                *n,
                "{file}: {kind}\n{}",
                table(&m.graph)
            );
        }
    }
    // Inception v3: each block's concatenation (E's two inner ones first), AuxLogits not run.
    let m = read_corpus("printed_tv_inception_v3.txt");
    let outer: Vec<(String, Vec<i64>)> = m
        .graph
        .nodes
        .iter()
        .filter(|n| n.kind == "cat" && n.name.starts_with("Mixed_7b"))
        .map(|n| (n.name.clone(), n.shape().unwrap()[1..].to_vec()))
        .collect();
    assert_eq!(
        outer.iter().map(|(_, s)| s.clone()).collect::<Vec<_>>(),
        [vec![768, 8, 8], vec![768, 8, 8], vec![2048, 8, 8]]
    );
    assert!(
        m.graph
            .nodes
            .iter()
            .all(|n| !n.name.starts_with("AuxLogits"))
    );
    assert_eq!(m.graph.nodes.last().unwrap().shape(), Some(&vec![2, 1000]));
    // Its blocks' `F.avg_pool2d(x, 3, 1, 1)` is the forward's own call: no default of a printed
    // AvgPool is assumed on its row.
    let pool = m
        .graph
        .nodes
        .iter()
        .find(|n| n.kind == "avg_pool2d")
        .unwrap();
    assert!(
        pool.inferred
            .flags
            .iter()
            .all(|f| !f.to_string().contains("printout does not show it")),
        "{:?}",
        pool.inferred.flags
    );
    // ConvNeXt's layer_scale, a parameter torch does not print: the same product, said.
    let m = read_corpus("printed_tv_convnext_tiny.txt");
    let scales: Vec<&Node> = m
        .graph
        .nodes
        .iter()
        .filter(|n| n.name.ends_with(".layer_scale"))
        .collect();
    assert_eq!(scales.len(), 18);
    assert!(scales.iter().all(|n| {
        n.inferred
            .flags
            .iter()
            .any(|f| f.to_string().contains("a learned parameter of shape"))
    }));
    // A LayerNorm2d printed otherwise (another repository's, no normalised shape): not taken
    // for torchvision's.
    let text = "Net(\n  (conv): Conv2d(3, 8, kernel_size=(1, 1), stride=(1, 1))\n  (norm): LayerNorm2d()\n)\n";
    let e = read(text, &Options::default()).unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    // StochasticDepth stands in as the identity, said on its row.
    let m = read_corpus("printed_tv_efficientnet_b0.txt");
    let sd = m.graph.nodes.iter().find(|n| n.kind == "Identity").unwrap();
    assert!(
        sd.source.text.starts_with("StochasticDepth(p="),
        "{}",
        sd.source.text
    );
    assert!(
        sd.inferred
            .flags
            .iter()
            .any(|f| f.to_string().contains("the identity in eval")),
        "{:?}",
        sd.inferred.flags
    );
    // Not torchvision's printed form (a probability out of range): not taken for it.
    let text = corpus("printed_tv_efficientnet_b0.txt").replacen(
        "StochasticDepth(p=0.0,",
        "StochasticDepth(p=2.0,",
        1,
    );
    let e = read(&text, &options(&text)).unwrap_err();
    assert!(e.message.contains("StochasticDepth(p=2.0"), "{e}");
}

/// Module classes whose forwards padlab knows though torchvision does not print them: M5 (its
/// relus functional, the classes on the last axis), the VAE (three outputs), C3D with or
/// without its softmax module.
#[test]
fn tutorial_modules_with_functional_steps_run_their_forwards() {
    let m = read_corpus("printed_audio_m5.txt");
    assert_eq!(m.graph.nodes.iter().filter(|n| n.kind == "relu").count(), 4);
    assert_eq!(m.graph.nodes.last().unwrap().shape(), Some(&vec![2, 1, 35]));
    let m = read_corpus("printed_examples_vae.txt");
    assert_eq!(m.graph.outputs.len(), 3);
    let text = corpus("printed_c3d.txt").replace(
        "  (relu): ReLU()\n)",
        "  (relu): ReLU()\n  (softmax): Softmax(dim=None)\n)",
    );
    let m = read(&text, &options(&text)).unwrap();
    assert!(m.graph.first_error().is_none(), "{}", table(&m.graph));
    let last = m.graph.nodes.last().unwrap();
    assert!(
        matches!(last.op, Op::Softmax { axis: 1, .. }),
        "{:?}",
        last.op
    );
    assert!(
        last.inferred
            .flags
            .iter()
            .any(|f| f.to_string().contains("`softmax` over fc8's logits")),
        "{:?}",
        last.inferred.flags
    );
}

/// `Softmax(dim=None)`: the dim torch takes from the input's rank (1 for a rank-2 input, 0 for
/// rank 3: the batch), stated on its row; unknown without an input size.
#[test]
fn a_softmax_printed_without_dim_takes_torchs_implicit_dim() {
    for (file, dim, rank) in [
        ("printed_softmax_no_dim.txt", 1, 2),
        ("printed_log_softmax_frames.txt", 0, 3),
    ] {
        let m = read_corpus(file);
        assert!(m.graph.first_error().is_none(), "{}", table(&m.graph));
        let n = m.graph.nodes.last().unwrap();
        assert!(
            matches!(n.op, Op::Softmax { axis, .. } if axis == dim),
            "{file}: {:?}",
            n.op
        );
        assert!(
            n.source.text.ends_with("Softmax(dim=None)"),
            "{}",
            n.source.text
        );
        let said = format!("dim={dim}: printed `dim=None`");
        assert!(
            n.inferred.flags.iter().any(|f| {
                let f = f.to_string();
                f.contains(&said) && f.ends_with(&format!("here {rank}"))
            }),
            "{file}: {:?}",
            n.inferred.flags
        );
        let Origin::Code { code, .. } = &m.origin else {
            panic!()
        };
        assert!(code.contains(&format!("Softmax(dim={dim})")), "{code}");
        // No input size: no rank, so no dim: the row's error.
        let m = read(&corpus(file), &Options::default()).unwrap();
        let (_, e) = m.graph.first_error().unwrap();
        assert!(e.contains("printed `dim=None`"), "{e}");
    }
}

/// A module padlab runs in printed order whose children are rarely a chain is an error on a
/// row, even where the shapes chain: a child named as a parallel path, a squeeze-excitation.
#[test]
fn a_block_that_is_not_a_chain_is_an_error_not_a_wrong_model() {
    let text = corpus("printed_tv_mobilenet_v3_small.txt");
    // An SE block of a class padlab does not know: its printed order returns the gate.
    let renamed = text.replace("SqueezeExcitation(", "SELayer(");
    let m = read(&renamed, &options(&renamed)).unwrap();
    let (id, e) = m.graph.first_error().unwrap();
    assert_eq!(m.graph.node(id).name, "features.1.block.1.scale_activation");
    assert!(
        e.contains("`features.1.block.1` (SELayer) looks like a squeeze-excitation"),
        "{e}"
    );
    // Blocks with `branch` children: the first branch's first row, though each shuffle block's
    // shapes would break later anyway.
    let text =
        corpus("printed_tv_shufflenet_v2_x0_5.txt").replace("InvertedResidual(", "ShuffleBlock(");
    let m = read(&text, &options(&text)).unwrap();
    let (id, e) = m.graph.first_error().unwrap();
    assert_eq!(m.graph.node(id).name, "stage2.0.branch1.0");
    assert!(
        e.contains("`branch1` is named as a path beside its siblings"),
        "{e}"
    );
    // An empty shortcut after the layers chains without a break: the error is on the module's
    // last row.
    let text = "Block(\n  (conv): Conv2d(8, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))\n  (bn): BatchNorm2d(8, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)\n  (shortcut): Sequential()\n)\n";
    let m = read_with(text, &[8, 6, 6]);
    let (id, e) = m.graph.first_error().unwrap();
    assert_eq!(m.graph.node(id).name, "bn");
    assert!(
        e.contains("`shortcut` is named as a path beside its siblings"),
        "{e}"
    );
    // Layers with no activation printed between them (M5 applies F.relu; C3D calls one shared
    // `relu`): the first one's row.
    let text = corpus("printed_audio_m5.txt").replace("M5(", "AudioNet(");
    let m = read(&text, &options(&text)).unwrap();
    let (id, e) = m.graph.first_error().unwrap();
    assert_eq!(m.graph.node(id).name, "conv1");
    assert!(
        e.contains(
            "prints its layers conv1, conv2, conv3, conv4, fc1 with no activation between them"
        ),
        "{e}"
    );
    // Two convolutions (a separable one) before the norm and activation: a chain.
    let text = "Separable(\n  (depthwise): Conv2d(8, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), groups=8)\n  (pointwise): Conv2d(8, 16, kernel_size=(1, 1), stride=(1, 1))\n  (bn): BatchNorm2d(16, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)\n  (relu): ReLU()\n)\n";
    assert!(read_with(text, &[8, 6, 6]).graph.first_error().is_none());
    // A U-Net's `Down` starts with its `downsample`: a chain, nothing said.
    let text = "Down(\n  (downsample): MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)\n  (conv): Conv2d(8, 16, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))\n)\n";
    assert!(read_with(text, &[8, 6, 6]).graph.first_error().is_none());
}

/// A class padlab does not know, or a known class whose children differ from the forward's:
/// its children in printed order, said, and an error naming the line where that breaks.
#[test]
fn an_unknown_block_runs_in_printed_order_and_breaks_with_its_line() {
    let text = corpus("printed_resnet18.txt");
    // Another class with exactly a BasicBlock's children: its forward, said to be assumed.
    let renamed = text.replace("BasicBlock(", "MyBlock(");
    let m = read(&renamed, &options(&renamed)).unwrap();
    assert!(m.graph.first_error().is_none(), "{}", table(&m.graph));
    let add = node(&m.graph, "layer2.0.add");
    assert!(
        add.inferred.flags.iter().any(|f| f
            .to_string()
            .contains("torchvision's BasicBlock, assumed: `MyBlock` has exactly its children")),
        "{:?}",
        add.inferred.flags
    );
    for renamed in [
        // A shortcut under a name padlab does not take for one.
        text.replace("BasicBlock(", "MyBlock(")
            .replace("(downsample)", "(proj)"),
        // A child the forward does not use: not torchvision's BasicBlock.
        text.replace(
            "      (bn2): BatchNorm2d(128, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)\n      (downsample)",
            "      (bn2): BatchNorm2d(128, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)\n      (gate): ReLU()\n      (downsample)",
        ),
    ] {
        assert_ne!(renamed, text);
        let m = read(&renamed, &options(&renamed)).unwrap();
        let (id, e) = m.graph.first_error().unwrap();
        let n = m.graph.node(id);
        assert!(n.name.starts_with("layer2.0."), "{}", n.name);
        assert!(e.contains("64 channels, but got 128"), "{e}");
        assert!(e.contains("traced in printed order"), "{e}");
        assert!(e.contains("the forward of `layer2.0` ("), "{e}");
        // No residual was guessed: only the known blocks (none in layer2.0) add.
        assert!(
            m.graph
                .nodes
                .iter()
                .filter(|n| n.name.starts_with("layer2.0"))
                .all(|n| n.inputs.len() <= 1)
        );
    }
}

/// A module run in printed order whose linear layer reads a feature map it declares the
/// values of: a flatten before it, said on its row; a map of other values: the linear layer's
/// error, on its line.
#[test]
fn a_flatten_before_a_classifier_is_said_and_a_mismatch_is_an_error() {
    let text = corpus("printed_vgg11.txt").replace("VGG(", "MyVGG(");
    let m = read(&text, &options(&text)).unwrap();
    assert!(m.graph.first_error().is_none(), "{}", table(&m.graph));
    let flat = m.graph.nodes.iter().find(|n| n.kind == "flatten").unwrap();
    assert_eq!(flat.shape(), Some(&vec![2, 25088]));
    assert!(
        flat.inferred
            .flags
            .iter()
            .any(|f| f.to_string().contains("a flatten before `classifier`")),
        "{}",
        table(&m.graph)
    );
    // The next row is the classifier's first layer (a dropout, before the linear layer).
    let i = m
        .graph
        .nodes
        .iter()
        .position(|n| n.kind == "flatten")
        .unwrap();
    assert_eq!(m.graph.nodes[i + 1].name, "classifier.0");
    // 512*7*7 values, but the classifier declares 1000: no flatten, the linear layer's error.
    let bad = text.replace("in_features=25088", "in_features=1000");
    let m = read(&bad, &options(&bad)).unwrap();
    assert!(m.graph.nodes.iter().all(|n| n.kind != "flatten"));
    let (id, e) = m.graph.first_error().unwrap();
    let n = m.graph.node(id);
    assert_eq!(n.name, "classifier.0");
    assert!(
        bad.lines()
            .nth(n.source.line - 1)
            .unwrap()
            .contains("in_features=1000")
    );
    assert!(e.contains("traced in printed order"), "{e}");
}

#[test]
fn a_printout_ports_to_torch_with_a_check_that_rebuilds_it() {
    use crate::model::port::{PortOptions, port};
    let m = read_corpus("printed_dcgan_discriminator.txt");
    let p = port(
        &m,
        crate::core::Framework::Torch,
        PortOptions { check: true },
    )
    .unwrap();
    let script = p.script.unwrap();
    assert!(script.contains("main = nn.Sequential("), "{script}");
    assert!(script.contains(
        "nn.BatchNorm2d(128, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)"
    ));
    assert!(script.contains("== 2765568"));
}

/// The printed forms torch 2.15 uses: `padding=same` and `padding_mode=reflect` bare,
/// `(0-2): 3 x`, a norm's `bias`, an empty `Sequential()`, an Upsample.
#[test]
fn printed_forms_torch_writes() {
    let text = "Net(\n  (stem): Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1), padding=same, padding_mode=reflect)\n  (bn): BatchNorm2d(8, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)\n  (blocks): ModuleList(\n    (0-2): 3 x ReLU()\n  )\n  (tail): Sequential()\n  (up): Upsample(scale_factor=2.0, mode='nearest')\n  (pool): AvgPool2d(kernel_size=3, stride=2, padding=1)\n)\n";
    let m = read_with(text, &[3, 9, 9]);
    assert_eq!(
        names(&m.graph),
        [
            "x", "stem", "bn", "blocks.0", "blocks.1", "blocks.2", "up", "pool"
        ]
    );
    assert!(m.graph.first_error().is_none(), "{}", table(&m.graph));
    let Origin::Code { code, .. } = &m.origin else {
        panic!()
    };
    assert!(
        code.contains("padding='same', padding_mode='reflect'"),
        "{code}"
    );
    assert!(!code.contains("bias=True, track"), "{code}");
    assert!(
        code.contains("nn.Upsample(scale_factor=2.0, mode='nearest')"),
        "{code}"
    );
    // A module that does not build is the error, on its line (not another model's table).
    let text = "Net(\n  (a): ModuleList(\n    (0): ReLU()\n  )\n  (b): Softplus(beta=2, threshold=20.0)\n)\n";
    let e = read(text, &Options::default()).unwrap_err();
    assert_eq!(e.line, 5, "{}", e.message);
    // The pool is padded and its windows could hang past the input: both hidden defaults said.
    let pool = m.graph.nodes.last().unwrap();
    assert!(
        pool.inferred
            .flags
            .iter()
            .any(|f| f.to_string().contains("count_include_pad=True")),
        "{}",
        table(&m.graph)
    );
    // Repeated blocks with bodies, and an extra_repr line in a custom module.
    let text = "M(\n  extra=1\n  (layers): ModuleList(\n    (0-1): 2 x Block(\n      (conv): Conv2d(4, 4, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))\n      (act): ReLU()\n    )\n  )\n)\n";
    let m = read_with(text, &[4, 5, 5]);
    assert_eq!(
        names(&m.graph),
        [
            "x",
            "layers.0.conv",
            "layers.0.act",
            "layers.1.conv",
            "layers.1.act"
        ]
    );
    assert_eq!(m.graph.nodes[3].source.line, 5);
    assert_eq!(m.params, Some(2 * (4 * 4 * 9 + 4)));
    // A layer whose repr spans lines.
    let text = "M(\n  (conv): Conv2d(\n    4, 4, kernel_size=(3, 3),\n    stride=(2, 2)\n  )\n  (act): ReLU()\n)\n";
    let m = read_with(text, &[4, 9, 9]);
    assert_eq!(m.graph.nodes[1].shape(), Some(&vec![2, 4, 4, 4]));
    // A scale without a shift is refused with its line.
    let bad = "Net(\n  (bn): BatchNorm2d(8, eps=1e-05, momentum=0.1, affine=True, bias=False, track_running_stats=True)\n)\n";
    let e = read(bad, &Options::default()).unwrap_err();
    assert_eq!(e.line, 2);
    // A custom leaf, a torch.nn module printed by its parts.
    let e = read("Net(\n  (act): Swish()\n)\n", &Options::default()).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(
        e.message.contains("not a torch.nn layer padlab builds"),
        "{}",
        e.message
    );
    let e = read(
        "Net(\n  (attn): MultiheadAttention(\n    (out_proj): NonDynamicallyQuantizableLinear(in_features=8, out_features=8, bias=True)\n  )\n)\n",
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(e.line, 2);
}

/// Every summary: each row's shape the table's, the first missing fact the one expected.
#[test]
fn every_summary_reads() {
    let cases: &[(&str, usize, &str)] = &[
        (
            "summary_flowers_no_input.txt",
            12,
            "line 7: the summary does not say the layers of `sequential`",
        ),
        (
            "summary_keras2_cifar10_cnn.txt",
            8,
            "line 6: the summary does not say the input sizes of `conv2d`",
        ),
        (
            "summary_keras2_dcgan_generator.txt",
            11,
            "line 6: the summary does not say the input sizes of `dense`",
        ),
        (
            "summary_keras2_toy_resnet.txt",
            15,
            "line 8: the summary does not say which activation `conv2d` applies",
        ),
        (
            "summary_mnist_convnet.txt",
            7,
            "line 6: the summary does not say the input sizes of `conv2d`",
        ),
        (
            "summary_toy_resnet.txt",
            15,
            "line 8: the summary does not say which activation `conv2d` applies",
        ),
        (
            "summary_vae_encoder.txt",
            8,
            "line 8: the summary does not say which activation `conv2d` applies",
        ),
        (
            "summary_xception_small.txt",
            43,
            "line 13: the summary does not say the scale and offset of `rescaling`",
        ),
    ];
    for &(file, rows, missing) in cases {
        let text = corpus(file);
        let m = read_corpus(file);
        let g = &m.graph;
        g.check().unwrap();
        let parsed = super::summary::parse(&text, super::find(&text).unwrap().line).unwrap();
        assert_eq!(parsed.rows.len(), rows, "{file}");
        for row in &parsed.rows {
            let n = node(g, &row.name);
            let shape = n.shape().map(|s| format!("{:?}", &s[1..]));
            let want = row
                .shape
                .trim_matches(|c| c == '[' || c == ']')
                .replace("(None, ", "[")
                .replace(')', "]");
            assert_eq!(
                shape.as_deref(),
                Some(want.as_str()),
                "{file}: {}",
                row.name
            );
        }
        assert!(g.first_error().is_none(), "{file}:\n{}", table(g));
        let Origin::Missing { line, what } = &m.origin else {
            panic!("{file}: every corpus summary lacks a fact");
        };
        assert!(
            format!("line {line}: {what}").starts_with(missing),
            "{file}: line {line}: {what}"
        );
        assert_eq!(m.params, parsed.total, "{file}");
    }
}

#[test]
fn derived_layers_of_real_summaries() {
    let m = read_corpus("summary_xception_small.txt");
    let conv = node(&m.graph, "conv2d");
    let Op::Conv(c) = &conv.op else { panic!() };
    // 896 = 3*3*3*32 + 32: a 3x3 kernel with a bias; 150 -> 75: stride 2, 'same'.
    assert_eq!(c.spec.kernel, crate::core::Dims::All(3));
    assert_eq!(c.spec.stride, Some(crate::core::Dims::All(2)));
    assert_eq!(c.spec.padding, Some(crate::core::Padding::Same));
    assert!(c.bias);
    assert!(
        conv.inferred
            .flags
            .contains(&Flag::Assumed("a square kernel".into()))
    );
    let a = conv.inferred.answer.as_ref().unwrap();
    assert_eq!((a.before(), a.after()), (vec![0, 0], vec![1, 1]));
    // A separable convolution: 8,896 = 3*3*64 + 64*128 + 128.
    let sep = node(&m.graph, "separable_conv2d");
    let Op::Conv(c) = &sep.op else { panic!() };
    assert_eq!(
        (c.spec.kernel.clone(), c.separable),
        (crate::core::Dims::All(3), true)
    );
    // The seed's old table: `(Batch` is BatchNormalization; 120 parameters fit two axes.
    let m = read_with(SEED_002, &[32, 32, 3]);
    assert_eq!(m.graph.framework, crate::core::Framework::Keras);
    let bn = node(&m.graph, "batch_normalization_1");
    assert_eq!(bn.kind, "BatchNormalization");
    assert!(
        m.graph
            .notes
            .iter()
            .any(|n| n.contains("which axis `batch_normalization_1` normalises: axes [1, 2]")),
        "{}",
        table(&m.graph)
    );
    // conv2d_2 keeps 30x30 with a 3x3 kernel: 'same', one pixel each side.
    let same = node(&m.graph, "conv2d_2");
    let a = same.inferred.answer.as_ref().unwrap();
    assert_eq!((a.before(), a.after()), (vec![1, 1], vec![1, 1]));
    assert_eq!(m.params, Some(38_960));
    let e = crate::model::port::port(&m, crate::core::Framework::Torch, Default::default())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 5: the summary does not say which activation `conv2d_1` applies (a Conv2D's activation= is not in its row)"
    );
}

/// Seed 002's summary as its forum post pastes it (Keras 2, types cut at the column).
const SEED_002: &str = "Which produces the following summary:

Layer (type)                 Output Shape              Param #   
=================================================================
conv2d_1 (Conv2D)            (None, 30, 30, 64)        1792      
_________________________________________________________________
batch_normalization_1 (Batch (None, 30, 30, 64)        120       
_________________________________________________________________
activation_1 (Activation)    (None, 30, 30, 64)        0         
_________________________________________________________________
dropout_1 (Dropout)          (None, 30, 30, 64)        0         
_________________________________________________________________
conv2d_2 (Conv2D)            (None, 30, 30, 64)        36928     
_________________________________________________________________
batch_normalization_2 (Batch (None, 30, 30, 64)        120       
_________________________________________________________________
activation_2 (Activation)    (None, 30, 30, 64)        0         
_________________________________________________________________
max_pooling2d_1 (MaxPooling2 (None, 15, 15, 64)        0         
=================================================================
Total params: 38,960
Trainable params: 38,840
Non-trainable params: 120

Right now, I would write:
";

/// A real Keras 3 summary whose every fact the numbers decide: Keras code of the derived
/// layers, with the table's numbers asserted, and a port with its check script.
const KNOWN: &str = "Model: \"synthetic\"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                  ┃ Output Shape              ┃         Param # ┃ Connected to               ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│ img (InputLayer)              │ (None, 28, 28, 3)         │               0 │ -                          │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ zero_padding2d                │ (None, 30, 30, 3)         │               0 │ img[0][0]                  │
│ (ZeroPadding2D)               │                           │                 │                            │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ max_pooling2d (MaxPooling2D)  │ (None, 29, 29, 3)         │               0 │ zero_padding2d[0][0]       │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ cropping2d (Cropping2D)       │ (None, 27, 27, 3)         │               0 │ max_pooling2d[0][0]        │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ cropping2d_1 (Cropping2D)     │ (None, 27, 27, 3)         │               0 │ cropping2d[0][0]           │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ concatenate (Concatenate)     │ (None, 27, 27, 6)         │               0 │ cropping2d[0][0],          │
│                               │                           │                 │ cropping2d_1[0][0]         │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ add (Add)                     │ (None, 27, 27, 6)         │               0 │ concatenate[0][0],         │
│                               │                           │                 │ concatenate[0][0]          │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ global_average_pooling2d      │ (None, 1, 1, 6)           │               0 │ add[0][0]                  │
│ (GlobalAveragePooling2D)      │                           │                 │                            │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ flatten (Flatten)             │ (None, 6)                 │               0 │ global_average_pooling2d[… │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ reshape (Reshape)             │ (None, 3, 2)              │               0 │ flatten[0][0]              │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ permute (Permute)             │ (None, 2, 3)              │               0 │ reshape[0][0]              │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ dropout (Dropout)             │ (None, 2, 3)              │               0 │ permute[0][0]              │
└───────────────────────────────┴───────────────────────────┴─────────────────┴────────────────────────────┘
 Total params: 0 (0.00 B)
 Trainable params: 0 (0.00 B)
 Non-trainable params: 0 (0.00 B)
";

#[test]
fn a_summary_with_every_fact_known_rebuilds_as_keras_code() {
    let m = read(KNOWN, &Options::default()).unwrap();
    assert!(m.graph.first_error().is_none(), "{}", table(&m.graph));
    let Origin::Code { code, build, .. } = &m.origin else {
        panic!("{:?}", m.origin);
    };
    assert_eq!(build, "model");
    for want in [
        "img = keras.Input(shape=(28, 28, 3), name=\"img\")",
        "layers.MaxPooling2D(2, strides=1, padding=\"valid\", name=\"max_pooling2d\")(zero_padding2d)",
        "layers.Concatenate(name=\"concatenate\")([cropping2d, cropping2d_1])",
        "layers.Permute((2, 1), name=\"permute\")(reshape)",
        "model = keras.Model(img, dropout, name=\"synthetic\")",
        "assert model.count_params() == 0",
        "(\"global_average_pooling2d\", (None, 1, 1, 6)),",
    ] {
        assert!(code.contains(want), "{want}\n{code}");
    }
    let p = crate::model::port::port(
        &m,
        crate::core::Framework::Torch,
        crate::model::port::PortOptions { check: true },
    )
    .unwrap();
    assert!(
        p.script
            .unwrap()
            .contains("source = eval(\"model\", namespace)")
    );
}

/// Detection: code first; code and then its printout (a forum post) reads the code; a
/// printout under comments; a summary inside prose; nothing printed keeps the code's error.
#[test]
fn detection_by_content() {
    let code = "import torch.nn as nn\nmodel = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU())\nprint(model)\n";
    let printout =
        "Sequential(\n  (0): Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1))\n  (1): ReLU()\n)\n";
    let opts = Options {
        input: Some(vec![3, 8, 8]),
        model: None,
    };
    let m = read(&format!("{code}\nOutput:\n\n{printout}"), &opts).unwrap();
    let Origin::Code { code: kept, .. } = &m.origin else {
        panic!()
    };
    assert!(kept.contains("nn.Conv2d(3, 8, 3)"), "{kept}");
    assert!(
        m.graph
            .notes
            .iter()
            .any(|n| n.contains("padlab read the code above it"))
    );
    let m = read(&format!("# padlab-input: 3x8x8\n{printout}"), &opts).unwrap();
    assert_eq!(m.graph.nodes[1].source.line, 3);
    assert!(m.graph.notes[0].starts_with("Read from a printout"));
    // Prose around a summary.
    let m = read(
        &format!("I get this:\n\n{KNOWN}\nWhy?\n"),
        &Options::default(),
    )
    .unwrap();
    assert_eq!(m.graph.framework, crate::core::Framework::Keras);
    assert_eq!(m.graph.nodes[1].source.line, 9);
    // Neither: the code reader's error.
    let e = read("x = = 1\n", &Options::default()).unwrap_err();
    assert_eq!(e.line, 1);
}

#[test]
fn hostile_printouts_are_errors_naming_the_line() {
    // Cut short.
    let text = corpus("printed_resnet18.txt");
    let cut: String = text.lines().take(40).collect::<Vec<_>>().join("\n");
    let e = read(&cut, &Options::default()).unwrap_err();
    assert!(e.message.contains("cut short"), "{}", e.message);
    // Nested deeper than torch ever prints.
    let mut deep = String::from("M(\n");
    for _ in 0..5000 {
        deep.push_str("  (a): S(\n");
    }
    let e = read(&deep, &Options::default()).unwrap_err();
    assert_eq!(e.line, 1 + super::torch::MAX_NESTING);
    // Repeats beyond the module limit.
    let e = read(
        "M(\n  (0-9999): 10000 x B(\n    (0-99): 100 x ReLU()\n  )\n)\n",
        &Options::default(),
    )
    .unwrap_err();
    assert!(e.message.contains("more than"), "{}", e.message);
    // A 1 MB line, read within bounds.
    let long = format!(
        "M(\n  (a): Conv2d(3, 4, kernel_size=(3, 3), stride=({}1))\n)\n",
        "1, ".repeat(350_000)
    );
    let t = Instant::now();
    let e = read(&long, &Options::default()).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(t.elapsed() < Duration::from_secs(20));
    // Arguments are data: a name in them is quoted, never run.
    let e = read(
        "M(\n  (a): Conv2d(3, 4, kernel_size=__import__('os').system('x'))\n)\n",
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(e.line, 2);
    for (printed, python) in [
        (
            "__import__('os').system('x')",
            "'__import__'('os').'system'('x')",
        ),
        ("1.0.__class__", "1.0.'__class__'"),
        ("''.__class__", "''.'__class__'"),
        ("(1e-05, 2.5E3, 1.e5)", "(1e-05, 2.5E3, 1.e5)"),
        ("same", "'same'"),
        ("-inf", "-float(\"inf\")"),
    ] {
        assert_eq!(super::torch::python_value(printed), python);
    }
}

/// Found by the proptest: a root followed by lines that are not children, then `)`.
#[test]
fn a_root_over_lines_that_are_not_children() {
    let row = "│ a (Dense) │ (None, 4) │ 20 │ x[0][0] │";
    let text = format!("M(\n{row}\n{row}\n{row}\n{row}\n)\n");
    assert_eq!(super::find(&text), None);
    assert!(read(&text, &Options::default()).is_err());
}

#[test]
fn hostile_summaries_are_errors_naming_the_line() {
    let text = corpus("summary_xception_small.txt");
    let half: String = text.lines().take(60).collect::<Vec<_>>().join("\n");
    let e = read(&half, &Options::default()).unwrap_err();
    assert!(e.message.contains("cut short"), "{}", e.message);
    let long = text.replacen(
        "│ conv2d (Conv2D) ",
        &format!("│ conv2d (Conv2D) {}", "x".repeat(1 << 20)),
        1,
    );
    let t = Instant::now();
    let _ = read(&long, &Options::default());
    assert!(t.elapsed() < Duration::from_secs(20));
    // A row reading a layer that is not above it.
    let bad = KNOWN.replace("permute[0][0]    ", "nowhere[0][0]    ");
    let e = read(&bad, &Options::default()).unwrap_err();
    assert_eq!(e.line, 31);
}

#[test]
fn snapshot_of_a_printouts_graph() {
    let m = read_corpus("printed_lenet5_classic.txt");
    insta::assert_snapshot!("printed_lenet5_classic", table(&m.graph));
}

#[test]
fn snapshot_of_a_summarys_derived_table() {
    let m = read_corpus("summary_toy_resnet.txt");
    insta::assert_snapshot!("summary_toy_resnet", table(&m.graph));
}

/// A real printout or summary with a random cut, insertion or duplicated line.
fn mutated() -> impl Strategy<Value = String> {
    let files = [
        "printed_resnet18.txt",
        "printed_mobilenet_v2.txt",
        "printed_unet_modulelist.txt",
        "printed_tv_mobilenet_v3_small.txt",
        "printed_tv_shufflenet_v2_x0_5.txt",
        "printed_tv_convnext_tiny.txt",
        "printed_softmax_no_dim.txt",
        "summary_toy_resnet.txt",
        "summary_keras2_toy_resnet.txt",
        "summary_xception_small.txt",
    ];
    (
        0..files.len(),
        any::<u32>(),
        any::<u32>(),
        0..4u8,
        ".{0,40}",
    )
        .prop_map(move |(f, a, b, how, junk)| {
            let text = corpus(files[f]);
            let chars: Vec<char> = text.chars().collect();
            let n = chars.len().max(1);
            let (a, b) = ((a as usize) % n, (b as usize) % n);
            let (lo, hi) = (a.min(b), a.max(b));
            let s: String = match how {
                0 => chars[..lo].iter().chain(&chars[hi..]).collect(),
                1 => chars[..lo]
                    .iter()
                    .copied()
                    .chain(junk.chars())
                    .chain(chars[lo..].iter().copied())
                    .collect(),
                2 => {
                    let lines: Vec<&str> = text.lines().collect();
                    let k = lo % lines.len().max(1);
                    let mut v = lines.clone();
                    v.insert(k, lines.get(hi % lines.len().max(1)).copied().unwrap_or(""));
                    v.join("\n")
                }
                _ => chars[..hi].iter().collect(),
            };
            s
        })
}

proptest! {
    // Failures become explicit tests here (as `a_root_over_lines_that_are_not_children`),
    // not files outside this module.
    #![proptest_config(ProptestConfig {
        cases: 48,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// No mutation of a real printout or summary panics, and each reads or fails with a line.
    #[test]
    fn mutated_printed_models_never_panic(text in mutated()) {
        let t = Instant::now();
        match read(&text, &Options { input: Some(vec![3, 32, 32]), model: None }) {
            Ok(m) => prop_assert!(m.graph.check().is_ok()),
            Err(e) => prop_assert!(e.line <= text.lines().count() + 1),
        }
        prop_assert!(t.elapsed() < Duration::from_secs(30));
    }

    /// Arbitrary text shaped like a printout's or a summary's lines never panics.
    #[test]
    fn printout_shaped_noise_never_panics(
        body in proptest::collection::vec(
            prop_oneof![
                Just("  (a): Conv2d(3, 4, kernel_size=(3, 3))".to_string()),
                Just("  (0-2): 3 x B(".to_string()),
                Just(")".to_string()),
                Just("│ a (Dense) │ (None, 4) │ 20 │ x[0][0] │".to_string()),
                Just(" Layer (type)   Output Shape   Param #".to_string()),
                Just("=====".to_string()),
                "[ -~│┃]{0,30}",
            ],
            0..40,
        )
    ) {
        let text = format!("M(\n{}\n", body.join("\n"));
        let _ = read(&text, &Options::default());
        let _ = super::find(&text);
    }
}
