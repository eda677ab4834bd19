//! placeholder
pub fn wire_for(_protocol: &serde_json::Value) -> Option<Result<Box<dyn crate::trace::wire::Wire>, String>> {
    None
}
