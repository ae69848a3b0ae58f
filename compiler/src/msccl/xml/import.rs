//! Reads MSCCL-IR XML as msccl-tools writes it (every step type, `nop` dependency chains,
//! msccl runtime extras such as `minBytes`). Every error names the element, the attribute
//! and the line.

use std::collections::BTreeMap;

use roxmltree::{Document, Node};

use crate::msccl::buffer::Buffer;
use crate::msccl::error::{MscclError, Result, XmlError};
use crate::msccl::ir::{BufRef, Dep, Gpu, MscclIr, Step, StepKind, ThreadBlock};
use crate::msccl::ir_check::{self, Site};
use crate::msccl::protocol::Protocol;

/// `<algo>` attributes with a field of their own.
const ALGO_ATTRS: [&str; 10] =
    ["name", "proto", "nchannels", "nchunksperloop", "ngpus", "coll", "inplace", "outofplace", "minBytes", "maxBytes"];

/// Parses MSCCL-IR XML and checks its structure.
pub fn from_xml(text: &str) -> Result<MscclIr> {
    let doc = Document::parse(text).map_err(|e| {
        let pos = e.pos();
        XmlError { line: pos.row, element: String::new(), attribute: None, message: e.to_string() }
    })?;
    let r = Reader { doc: &doc };
    let root = doc.root_element();
    if root.tag_name().name() != "algo" {
        let msg = format!("the root element must be <algo>, not <{}>", root.tag_name().name());
        return Err(r.error(root, None, msg).into());
    }
    let ngpus = r.usize(root, "ngpus")?;
    let mut gpus = Vec::new();
    let mut nodes = Vec::new();
    for node in r.children(root, "gpu")? {
        let (gpu, tb_nodes) = r.gpu(node)?;
        gpus.push(gpu);
        nodes.push((node, tb_nodes));
    }
    let order = r.sort_by_id(&mut gpus, &nodes, |g| g.id, |(n, _)| *n, "gpu")?;
    let nodes: Vec<_> = order.into_iter().map(|i| nodes[i].clone()).collect();
    if gpus.len() != ngpus {
        let msg = format!("ngpus is {ngpus} but there are {} <gpu> elements", gpus.len());
        return Err(r.error(root, Some("ngpus"), msg).into());
    }
    let protocol_name = r.str(root, "proto")?;
    let protocol = Protocol::parse(protocol_name).ok_or_else(|| {
        r.error(root, Some("proto"), format!("unknown protocol `{protocol_name}` (Simple, LL or LL128)"))
    })?;
    let extra_attrs: BTreeMap<String, String> = root
        .attributes()
        .filter(|a| !ALGO_ATTRS.contains(&a.name()))
        .map(|a| (a.name().to_string(), a.value().to_string()))
        .collect();
    let ir = MscclIr {
        name: r.str(root, "name")?.to_string(),
        collective: r.str(root, "coll")?.to_string(),
        protocol,
        nchannels: r.usize(root, "nchannels")?,
        nchunksperloop: r.usize(root, "nchunksperloop")?,
        inplace: r.flag(root, "inplace")?,
        outofplace: r.optional(root, "outofplace", |n, a| r.flag(n, a))?,
        min_bytes: r.optional(root, "minBytes", |n, a| r.u64(n, a))?,
        max_bytes: r.optional(root, "maxBytes", |n, a| r.u64(n, a))?,
        extra_attrs,
        gpus,
    };
    ir_check::check(&ir).map_err(|p| {
        let node = match p.site {
            Site::Gpu(g) => nodes[g].0,
            Site::Tb(g, t) => nodes[g].1[t].0,
            Site::Step(g, t, s) => nodes[g].1[t].1[s],
        };
        MscclError::from(r.error(node, Some(p.attribute), p.message))
    })?;
    Ok(ir)
}

/// A thread block's element and its steps' elements, in id / step order.
type TbNodes<'a, 'i> = (Node<'a, 'i>, Vec<Node<'a, 'i>>);

struct Reader<'a, 'i> {
    doc: &'a Document<'i>,
}

impl<'a, 'i> Reader<'a, 'i> {
    fn error(&self, node: Node<'a, 'i>, attribute: Option<&str>, message: String) -> XmlError {
        XmlError {
            line: self.doc.text_pos_at(node.range().start).row,
            element: node.tag_name().name().to_string(),
            attribute: attribute.map(str::to_string),
            message,
        }
    }

    /// Element children, which must all be `<name>`.
    fn children(&self, node: Node<'a, 'i>, name: &str) -> Result<Vec<Node<'a, 'i>>> {
        let mut out = Vec::new();
        for child in node.children() {
            if child.is_element() {
                if child.tag_name().name() != name {
                    let msg = format!("unexpected <{}> inside <{}>", child.tag_name().name(), node.tag_name().name());
                    return Err(self.error(child, None, msg).into());
                }
                out.push(child);
            } else if child.is_text() && child.text().is_some_and(|t| !t.trim().is_empty()) {
                return Err(self.error(node, None, "unexpected text content".into()).into());
            }
        }
        Ok(out)
    }

    fn str(&self, node: Node<'a, 'i>, attr: &str) -> Result<&'a str> {
        node.attribute(attr).ok_or_else(|| self.error(node, Some(attr), "missing required attribute".into()).into())
    }

    fn int(&self, node: Node<'a, 'i>, attr: &str) -> Result<i64> {
        let text = self.str(node, attr)?;
        text.trim()
            .parse::<i64>()
            .map_err(|_| self.error(node, Some(attr), format!("`{text}` is not an integer")).into())
    }

    fn u64(&self, node: Node<'a, 'i>, attr: &str) -> Result<u64> {
        let value = self.int(node, attr)?;
        u64::try_from(value).map_err(|_| self.error(node, Some(attr), format!("{value} is negative")).into())
    }

    fn usize(&self, node: Node<'a, 'i>, attr: &str) -> Result<usize> {
        let value = self.int(node, attr)?;
        usize::try_from(value).map_err(|_| self.error(node, Some(attr), format!("{value} is negative")).into())
    }

    /// An integer where -1 means "none".
    fn maybe(&self, node: Node<'a, 'i>, attr: &str) -> Result<Option<usize>> {
        match self.int(node, attr)? {
            -1 => Ok(None),
            v => usize::try_from(v)
                .map(Some)
                .map_err(|_| self.error(node, Some(attr), format!("{v} is neither -1 nor a valid index")).into()),
        }
    }

    fn flag(&self, node: Node<'a, 'i>, attr: &str) -> Result<bool> {
        match self.int(node, attr)? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(self.error(node, Some(attr), format!("{v} is not 0 or 1")).into()),
        }
    }

    fn optional<T>(
        &self,
        node: Node<'a, 'i>,
        attr: &str,
        parse: impl Fn(Node<'a, 'i>, &str) -> Result<T>,
    ) -> Result<Option<T>> {
        node.attribute(attr).map(|_| parse(node, attr)).transpose()
    }

    /// Sorts `items` by id and checks the ids are 0..n; returns the permutation applied.
    fn sort_by_id<T, N>(
        &self,
        items: &mut Vec<T>,
        nodes: &[N],
        id: impl Fn(&T) -> usize,
        node: impl Fn(&N) -> Node<'a, 'i>,
        what: &str,
    ) -> Result<Vec<usize>> {
        let mut order: Vec<usize> = (0..items.len()).collect();
        order.sort_by_key(|&i| id(&items[i]));
        for (want, &i) in order.iter().enumerate() {
            if id(&items[i]) != want {
                let msg = format!("{what} ids must be 0..{} without gaps or repeats", items.len());
                return Err(self.error(node(&nodes[i]), Some("id"), msg).into());
            }
        }
        let mut taken: Vec<Option<T>> = items.drain(..).map(Some).collect();
        items.extend(order.iter().filter_map(|&i| taken[i].take()));
        Ok(order)
    }

    fn gpu(&self, node: Node<'a, 'i>) -> Result<(Gpu, Vec<TbNodes<'a, 'i>>)> {
        let mut tbs = Vec::new();
        let mut nodes = Vec::new();
        for tb_node in self.children(node, "tb")? {
            let (tb, steps) = self.tb(tb_node)?;
            tbs.push(tb);
            nodes.push((tb_node, steps));
        }
        let order = self.sort_by_id(&mut tbs, &nodes, |t| t.id, |(n, _)| *n, "tb")?;
        let nodes = order.into_iter().map(|i| nodes[i].clone()).collect();
        let gpu = Gpu {
            id: self.usize(node, "id")?,
            input_chunks: self.usize(node, "i_chunks")?,
            output_chunks: self.usize(node, "o_chunks")?,
            scratch_chunks: self.usize(node, "s_chunks")?,
            tbs,
        };
        Ok((gpu, nodes))
    }

    fn tb(&self, node: Node<'a, 'i>) -> Result<(ThreadBlock, Vec<Node<'a, 'i>>)> {
        let step_nodes = self.children(node, "step")?;
        let mut steps = Vec::with_capacity(step_nodes.len());
        for (at, &step_node) in step_nodes.iter().enumerate() {
            let s = self.usize(step_node, "s")?;
            if s != at {
                return Err(self.error(step_node, Some("s"), format!("step {s} found where step {at} belongs")).into());
            }
            steps.push(self.step(step_node)?);
        }
        let tb = ThreadBlock {
            id: self.usize(node, "id")?,
            send: self.maybe(node, "send")?,
            recv: self.maybe(node, "recv")?,
            channel: self.usize(node, "chan")?,
            steps,
        };
        Ok((tb, step_nodes))
    }

    fn step(&self, node: Node<'a, 'i>) -> Result<Step> {
        let type_name = self.str(node, "type")?;
        let kind = StepKind::parse(type_name)
            .ok_or_else(|| self.error(node, Some("type"), format!("unknown step type `{type_name}`")))?;
        let dep = match (self.maybe(node, "depid")?, self.maybe(node, "deps")?) {
            (Some(tb), Some(step)) => Some(Dep { tb, step }),
            (None, None) => None,
            (Some(_), None) => {
                return Err(self.error(node, Some("deps"), "depid names a thread block but deps is -1".into()).into());
            }
            (None, Some(_)) => {
                return Err(self.error(node, Some("depid"), "deps names a step but depid is -1".into()).into());
            }
        };
        Ok(Step {
            kind,
            src: self.operand(node, "srcbuf", "srcoff")?,
            dst: self.operand(node, "dstbuf", "dstoff")?,
            count: self.usize(node, "cnt")?,
            dep,
            has_dep: self.flag(node, "hasdep")?,
        })
    }

    fn operand(&self, node: Node<'a, 'i>, buf_attr: &str, off_attr: &str) -> Result<Option<BufRef>> {
        let letter = self.str(node, buf_attr)?;
        let buffer = Buffer::from_letter(letter)
            .ok_or_else(|| self.error(node, Some(buf_attr), format!("unknown buffer `{letter}` (i, o or s)")))?;
        Ok(self.maybe(node, off_attr)?.map(|index| BufRef::new(buffer, index)))
    }
}
