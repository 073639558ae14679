//! The methods of an operation whose statuses are typed as an enum: the
//! result type names the enum, and each match arm reads its status's
//! body into its variant (a range's arm, each status documented within
//! it), with `api-client-runtime`'s `responses`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::visit_mut::VisitMut;

use super::{Class, Reader, Typed, Variant};

impl VisitMut for Typed {
    fn visit_impl_item_fn_mut(&mut self, method: &mut syn::ImplItemFn) {
        // A builder client's method of the operation's name only makes the
        // builder; its `send` (in the `builder` module) sends.
        if method.sig.asyncness.is_none() {
            return;
        }
        let module = match method.sig.ident == "send" {
            true => quote!(super::responses),
            false => quote!(responses),
        };
        let mut arms = Arms {
            typed: self,
            module: &module,
        };
        arms.visit_return_type_mut(&mut method.sig.output);
        arms.visit_block_mut(&mut method.block);
    }
}

/// The variants a match arm reads, each with the code it is read for
/// (`None`: any other the arm covers).
type Reads<'v> = Vec<(Option<u16>, &'v Variant)>;

/// Rewrites one method's result type and its match arms.
struct Arms<'t> {
    typed: &'t Typed,
    module: &'t TokenStream,
}

impl Arms<'_> {
    /// The enum of a match arm's pattern, and the variants it reads: each
    /// documented status within a range with its code, then the one read
    /// otherwise (the range's own, or `default`, which `for_progenitor`
    /// made the ranges it covers).
    fn reads(&self, pattern: &syn::Pat) -> Option<(Class, &syn::Ident, Reads<'_>)> {
        let text = quote!(#pattern).to_string().replace(' ', "");
        let (class_digit, range) = match text.split_once("..=") {
            Some((low, _)) => (low.chars().next()?, true),
            None => (text.chars().next()?, false),
        };
        let (class, typed) = match class_digit {
            '2' => (Class::Success, &self.typed.success),
            '4' | '5' => (Class::Error, &self.typed.error),
            _ => return None,
        };
        let (name, variants) = typed.as_ref()?;
        if !range {
            let key = text.strip_suffix("u16")?;
            let variant = variants.iter().find(|v| v.key == key)?;
            return Some((class, name, vec![(None, variant)]));
        }
        let mut reads: Vec<(Option<u16>, &Variant)> = variants
            .iter()
            .filter_map(|v| v.key.parse::<u16>().ok().map(|code| (code, v)))
            .filter(|(code, _)| char::from_digit(u32::from(code / 100), 10) == Some(class_digit))
            .map(|(code, v)| (Some(code), v))
            .collect();
        let own = format!("{class_digit}XX");
        let fallback = variants
            .iter()
            .find(|v| v.key == own)
            .or_else(|| variants.iter().find(|v| v.key == "default"));
        reads.extend(fallback.map(|v| (None, v)));
        (!reads.is_empty()).then_some((class, name, reads))
    }

    /// The arm's value for one status: its body read into its variant.
    fn read(&self, class: Class, name: &syn::Ident, variant: &Variant) -> TokenStream {
        let module = self.module;
        let ident = &variant.name;
        let wrap = quote!(#module::#name::#ident);
        // A success arm's value is the method's result (its error type
        // inferred); an error's reader names the error type for its `?`.
        let (json, bytes) = match class {
            Class::Success => (quote!(json), quote!(bytes)),
            Class::Error => (quote!(json::<_, _, #module::#name>), quote!(bytes::<_, #module::#name>)),
        };
        let read = match variant.read {
            Reader::Empty => quote!(::api_client_runtime::responses::empty(response, #wrap)),
            Reader::Json => quote!(::api_client_runtime::responses::#json(response, #wrap).await),
            Reader::Bytes => quote!(::api_client_runtime::responses::#bytes(response, #wrap).await),
        };
        match (class, variant.read) {
            (Class::Success, Reader::Empty) => quote!(Ok(#read)),
            (Class::Success, _) => read,
            (Class::Error, Reader::Empty) => quote!(Err(Error::ErrorResponse(#read))),
            (Class::Error, _) => quote!(Err(Error::ErrorResponse(#read?))),
        }
    }
}

impl VisitMut for Arms<'_> {
    fn visit_path_segment_mut(&mut self, segment: &mut syn::PathSegment) {
        syn::visit_mut::visit_path_segment_mut(self, segment);
        let typed = match segment.ident.to_string().as_str() {
            "ResponseValue" => &self.typed.success,
            "Error" => &self.typed.error,
            _ => return,
        };
        let Some((name, _)) = typed else { return };
        let syn::PathArguments::AngleBracketed(args) = &mut segment.arguments else {
            return;
        };
        if let Some(syn::GenericArgument::Type(ty)) = args.args.first_mut()
            && quote!(#ty).to_string() == "ByteStream"
        {
            let module = self.module;
            *ty = syn::parse_quote!(#module::#name);
        }
    }

    fn visit_arm_mut(&mut self, arm: &mut syn::Arm) {
        if !quote!(#arm).to_string().contains("ResponseValue :: stream (response)") {
            return;
        }
        let Some((class, name, reads)) = self.reads(&arm.pat) else {
            return;
        };
        let value = match reads.as_slice() {
            [(None, variant)] => self.read(class, name, variant),
            _ => {
                let arms = reads.iter().map(|(code, variant)| {
                    let read = self.read(class, name, variant);
                    match code {
                        Some(code) => {
                            let code = syn::LitInt::new(&format!("{code}u16"), proc_macro2::Span::call_site());
                            quote!(#code => { #read })
                        }
                        None => quote!(_ => { #read }),
                    }
                });
                let otherwise = match reads.iter().any(|(code, _)| code.is_none()) {
                    true => quote!(),
                    false => quote!(_ => Err(Error::UnexpectedResponse(response)),),
                };
                quote!(match response.status().as_u16() { #(#arms)* #otherwise })
            }
        };
        *arm.body = syn::parse_quote!({ #value });
    }
}
