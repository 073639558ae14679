//! Responses read into an operation's enum of its documented statuses.
//! progenitor gives an operation one success type and one error type;
//! where its statuses' bodies differ (a 200 with a body beside a 204, a
//! 404 with the Error object beside a bodiless 401), the generated client
//! has an enum per operation with a variant per status, and each match
//! arm reads its status's body into its variant with these: JSON decoded
//! into the variant's type, another media type as bytes, no body as the
//! variant alone. Status and headers stay on the `ResponseValue`.

use progenitor_client::{Error, ResponseValue};
use serde::de::DeserializeOwned;

/// A JSON body, decoded into `T` and made the variant `wrap` says.
pub async fn json<T, U, E>(response: reqwest::Response, wrap: impl FnOnce(T) -> U) -> Result<ResponseValue<U>, Error<E>>
where
    T: DeserializeOwned,
{
    let (status, headers) = (response.status(), response.headers().clone());
    let full = response.bytes().await.map_err(Error::ResponseBodyError)?;
    let value = serde_json::from_slice(&full).map_err(|e| Error::InvalidResponsePayload(full, e))?;
    Ok(ResponseValue::new(wrap(value), status, headers))
}

/// A body of another media type, as its bytes.
pub async fn bytes<U, E>(
    response: reqwest::Response,
    wrap: impl FnOnce(Vec<u8>) -> U,
) -> Result<ResponseValue<U>, Error<E>> {
    let (status, headers) = (response.status(), response.headers().clone());
    let full = response.bytes().await.map_err(Error::ResponseBodyError)?;
    Ok(ResponseValue::new(wrap(full.to_vec()), status, headers))
}

/// A status documented without a body: the variant alone.
pub fn empty<U>(response: reqwest::Response, variant: U) -> ResponseValue<U> {
    ResponseValue::new(variant, response.status(), response.headers().clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    enum Answer {
        Ok(Vec<u32>),
        Text(Vec<u8>),
        NoContent,
    }

    fn response(status: u16, body: &'static str) -> reqwest::Response {
        let answer = http::Response::builder()
            .status(status)
            .header("x-page", "2")
            .body(body)
            .unwrap();
        reqwest::Response::from(answer)
    }

    #[tokio::test]
    async fn each_status_is_read_into_its_variant_with_status_and_headers() {
        let ok = json::<_, _, ()>(response(200, "[1,2]"), Answer::Ok).await.unwrap();
        assert_eq!(
            (ok.status().as_u16(), ok.headers()["x-page"].to_str().unwrap()),
            (200, "2")
        );
        assert_eq!(ok.into_inner(), Answer::Ok(vec![1, 2]));
        let text = bytes::<_, ()>(response(203, "plain"), Answer::Text).await.unwrap();
        assert_eq!(text.into_inner(), Answer::Text(b"plain".to_vec()));
        assert_eq!(
            empty(response(204, ""), Answer::NoContent).into_inner(),
            Answer::NoContent
        );
    }

    #[tokio::test]
    async fn a_body_not_of_its_type_is_an_invalid_payload() {
        let wrong = json::<_, _, ()>(response(200, "{\"a\":1}"), Answer::Ok)
            .await
            .unwrap_err();
        assert!(matches!(wrong, Error::InvalidResponsePayload(..)), "{wrong:?}");
    }
}
