//! The Swagger Petstore v3, exactly as published, served by its generated
//! contract and driven over HTTP by its generated progenitor client: every
//! operation, with OAuth2 and API-key credentials, a literal path beside a
//! variable one (`/pet/findByStatus`, `/pet/{petId}`), and its JSON, XML
//! and form media types (bodies are read in all three; responses are
//! written as JSON, and an `Accept` of XML alone is 406).

use dropshot::HttpServer;
use serde_json::json;
use swagger_petstore::client::{Client, Credentials, Error as ClientError, types};
use swagger_petstore::service::Service;

const TOKEN: &str = "oauth-token-for-tests";
const KEY: &str = "api-key-for-tests";

struct Store {
    /// `http://127.0.0.1:PORT/api/v3`
    base_url: String,
    server: HttpServer<Service>,
}

impl Store {
    async fn start() -> Store {
        let server = swagger_petstore::server::start(
            Service::new(TOKEN.into(), KEY.into()),
            "127.0.0.1:0".parse().unwrap(),
            swagger_petstore::server::quiet_logger(),
        )
        .unwrap();
        let base_url = format!("http://{}{}", server.local_addr(), swagger_petstore::api::BASE_PATH);
        Store { base_url, server }
    }

    fn client(&self, credentials: Credentials) -> Client {
        Client::new(&self.base_url, credentials)
    }

    /// A client with the OAuth2 token and the API key: each operation
    /// gets the one its security names.
    fn both(&self) -> Client {
        self.client(Credentials {
            petstore_auth: Some(TOKEN.into()),
            api_key: Some(KEY.into()),
        })
    }

    fn raw(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        reqwest::Client::new().request(method, format!("{}{path}", self.base_url))
    }

    async fn stop(self) {
        self.server.close().await.unwrap();
    }
}

fn pet(name: &str, status: &str, tag: &str) -> types::Pet {
    serde_json::from_value(json!({
        "name": name,
        "photoUrls": [],
        "status": status,
        "tags": [{"id": 1, "name": tag}],
        "category": {"id": 2, "name": "Dogs"},
    }))
    .unwrap()
}

fn status_of<T: std::fmt::Debug>(result: Result<progenitor_client::ResponseValue<T>, ClientError<()>>) -> u16 {
    match result {
        Ok(response) => response.status().as_u16(),
        Err(ClientError::ErrorResponse(response)) => response.status().as_u16(),
        Err(ClientError::UnexpectedResponse(response)) => response.status().as_u16(),
        Err(other) => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn pets_are_added_found_changed_and_deleted() {
    let store = Store::start().await;
    let client = store.both();
    let rex = client
        .add_pet(&pet("Rex", "available", "good"))
        .await
        .unwrap()
        .into_inner();
    let id = rex.id.expect("the store gives an id");
    client.add_pet(&pet("Tom", "pending", "cat")).await.unwrap();

    // `getPetById` takes the API key too.
    let by_key = store.client(Credentials {
        api_key: Some(KEY.into()),
        ..Default::default()
    });
    assert_eq!(by_key.get_pet_by_id(id).await.unwrap().into_inner().name, "Rex");

    // `/pet/findByStatus` and `/pet/findByTags` beside `/pet/{petId}`.
    let available = client
        .find_pets_by_status(Some(types::FindPetsByStatusStatus::Available))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(available.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["Rex"]);
    let tagged = client
        .find_pets_by_tags(Some(&vec!["cat".to_string()]))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(tagged.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["Tom"]);

    let mut renamed = rex.clone();
    renamed.name = "Rexy".into();
    assert_eq!(client.update_pet(&renamed).await.unwrap().into_inner().name, "Rexy");
    let sold = client
        .update_pet_with_form(id, Some("Rex"), Some("sold"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (sold.name.as_str(), sold.status.map(|s| s.to_string())),
        ("Rex", Some("sold".into()))
    );

    let uploaded = client
        .upload_file(id, Some("front"), vec![0x89, b'P', b'N', b'G'])
        .await
        .unwrap()
        .into_inner();
    assert_eq!(uploaded.message.as_deref(), Some("4 bytes stored front"));
    // `getInventory` takes the API key alone.
    let oauth_only = store.client(Credentials {
        petstore_auth: Some(TOKEN.into()),
        ..Default::default()
    });
    assert_eq!(status_of(oauth_only.get_inventory().await), 401);
    let inventory = client.get_inventory().await.unwrap().into_inner();
    assert_eq!(inventory.get("sold"), Some(&1));
    assert_eq!(inventory.get("pending"), Some(&1));

    assert_eq!(status_of(client.delete_pet(id, Some("ignored")).await), 200);
    assert_eq!(status_of(client.get_pet_by_id(id).await), 404);
    assert_eq!(status_of(client.update_pet(&renamed).await), 404);
    store.stop().await;
}

#[tokio::test]
async fn orders_and_users_round_trip() {
    let store = Store::start().await;
    // The store and user operations are public.
    let client = store.client(Credentials::default());
    let order: types::Order =
        serde_json::from_value(json!({"petId": 7, "quantity": 2, "status": "placed", "complete": false})).unwrap();
    let placed = client.place_order(&order).await.unwrap().into_inner();
    let id = placed.id.unwrap();
    assert_eq!(client.get_order_by_id(id).await.unwrap().into_inner().quantity, Some(2));
    assert_eq!(status_of(client.delete_order(id).await), 200);
    assert_eq!(status_of(client.get_order_by_id(id).await), 404);

    let ann: types::User =
        serde_json::from_value(json!({"username": "ann", "email": "ann@example.com", "userStatus": 1})).unwrap();
    client.create_user(&ann).await.unwrap();
    let bob: types::User = serde_json::from_value(json!({"username": "bob"})).unwrap();
    let last = client
        .create_users_with_list_input(&vec![bob.clone()])
        .await
        .unwrap()
        .into_inner();
    assert_eq!(last.username.as_deref(), Some("bob"));
    let session = client.login_user(Some("secret"), Some("ann")).await.unwrap();
    assert!(session.headers().contains_key("x-rate-limit"));
    assert!(session.headers().contains_key("x-expires-after"));
    assert!(session.into_inner().contains("ann"));
    let mut changed = ann.clone();
    changed.phone = Some("555".into());
    assert_eq!(status_of(client.update_user("ann", &changed).await), 200);
    assert_eq!(
        client
            .get_user_by_name("ann")
            .await
            .unwrap()
            .into_inner()
            .phone
            .as_deref(),
        Some("555")
    );
    assert_eq!(status_of(client.delete_user("ann").await), 200);
    assert_eq!(status_of(client.get_user_by_name("ann").await), 404);
    assert_eq!(status_of(client.logout_user().await), 200);
    store.stop().await;
}

#[tokio::test]
async fn credentials_are_checked_before_anything_else() {
    let store = Store::start().await;
    let anonymous = store.client(Credentials::default());
    assert_eq!(status_of(anonymous.get_pet_by_id(1).await), 401);
    let wrong = store.client(Credentials {
        petstore_auth: Some("nope".into()),
        ..Default::default()
    });
    assert_eq!(status_of(wrong.add_pet(&pet("Rex", "available", "good")).await), 401);
    // Without credentials: a challenge for each scheme `getPetById` takes.
    let answer = store.raw(reqwest::Method::GET, "/pet/1").send().await.unwrap();
    let challenges: Vec<&str> = answer
        .headers()
        .get_all("www-authenticate")
        .iter()
        .map(|v| v.to_str().unwrap())
        .collect();
    assert_eq!(challenges, ["ApiKey header=\"api_key\"", "Bearer"]);
    store.stop().await;
}

#[tokio::test]
async fn json_forms_and_xml_are_read_and_json_is_written() {
    let store = Store::start().await;
    // An order as a form: the same value as JSON.
    let form = store
        .raw(reqwest::Method::POST, "/store/order")
        .header("content-type", "application/x-www-form-urlencoded")
        .body("petId=3&quantity=1&status=approved&complete=true")
        .send()
        .await
        .unwrap();
    assert_eq!(form.status(), 200);
    let order: serde_json::Value = form.json().await.unwrap();
    assert_eq!(
        (order["quantity"].as_i64(), order["status"].as_str()),
        (Some(1), Some("approved"))
    );
    // A pet as a form: its lists as repeated pairs, its object as JSON.
    let pet_form = store
        .raw(reqwest::Method::POST, "/pet")
        .bearer_auth(TOKEN)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("name=Rex&photoUrls=a&photoUrls=b&category=%7B%22name%22%3A%22Dogs%22%7D")
        .send()
        .await
        .unwrap();
    assert_eq!(pet_form.status(), 200);
    let pet: serde_json::Value = pet_form.json().await.unwrap();
    assert_eq!(pet["photoUrls"], json!(["a", "b"]));
    assert_eq!(pet["category"]["name"], "Dogs");
    // XML bodies are read by the schema's `xml` objects into the same
    // value: `photoUrls` and `tags` wrapped, each item named.
    let xml_pet = store
        .raw(reqwest::Method::POST, "/pet")
        .bearer_auth(TOKEN)
        .header("content-type", "application/xml")
        .body(
            "<pet><name>Rex</name><category><name>Dogs</name></category>\
             <photoUrls><photoUrl>a</photoUrl><photoUrl>b</photoUrl></photoUrls>\
             <tags><tag><id>7</id><name>good</name></tag></tags><status>sold</status></pet>",
        )
        .send()
        .await
        .unwrap();
    assert_eq!(xml_pet.status(), 200);
    let pet: serde_json::Value = xml_pet.json().await.unwrap();
    assert_eq!(
        (
            &pet["photoUrls"],
            &pet["tags"],
            &pet["category"]["name"],
            &pet["status"]
        ),
        (
            &json!(["a", "b"]),
            &json!([{"id": 7, "name": "good"}]),
            &json!("Dogs"),
            &json!("sold")
        )
    );
    // The schema holds for XML as for JSON: `photoUrls` is required, and
    // a status outside the enum or a malformed document is a 400.
    for (body, names) in [
        ("<pet><name>Rex</name></pet>", "photoUrls"),
        (
            "<pet><name>Rex</name><photoUrls/><status>lost</status></pet>",
            "/status",
        ),
        ("<pet><name>Rex</name>", "well-formed"),
    ] {
        let refused = store
            .raw(reqwest::Method::POST, "/pet")
            .bearer_auth(TOKEN)
            .header("content-type", "application/xml")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(refused.status(), 400, "{body}");
        let problem: serde_json::Value = refused.json().await.unwrap();
        assert!(problem["detail"].as_str().unwrap().contains(names), "{body}: {problem}");
    }
    // Responses are written as JSON only: an `Accept` of XML alone is 406.
    let xml_answer = store
        .raw(reqwest::Method::GET, &format!("/store/order/{}", order["id"]))
        .header("accept", "application/xml")
        .send()
        .await
        .unwrap();
    assert_eq!(xml_answer.status(), 406);
    let json_answer = store
        .raw(reqwest::Method::GET, &format!("/store/order/{}", order["id"]))
        .header("accept", "application/xml;q=0.9, application/json;q=0.5")
        .send()
        .await
        .unwrap();
    assert_eq!(json_answer.status(), 200);
    assert_eq!(json_answer.headers()["content-type"], "application/json");
    store.stop().await;
}

#[tokio::test]
async fn an_empty_path_variable_is_served_and_an_empty_segment_is_no_other_path() {
    let store = Store::start().await;
    // A user named "" is valid (no `minLength`); its path is `/user/`,
    // which dropshot's router reads as `/user` (POST only).
    let created = store
        .raw(reqwest::Method::POST, "/user")
        .json(&json!({"username": "", "firstName": "Nobody"}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 200);
    let found = store.raw(reqwest::Method::GET, "/user/").send().await.unwrap();
    assert_eq!(found.status(), 200);
    let user: serde_json::Value = found.json().await.unwrap();
    assert_eq!(user["firstName"], "Nobody");
    let updated = store
        .raw(reqwest::Method::PUT, "/user/")
        .json(&json!({"username": "", "firstName": "Somebody"}))
        .send()
        .await
        .unwrap();
    assert_eq!(updated.status(), 200);
    let deleted = store.raw(reqwest::Method::DELETE, "/user/").send().await.unwrap();
    assert_eq!(deleted.status(), 200);
    let gone = store.raw(reqwest::Method::GET, "/user/").send().await.unwrap();
    assert_eq!(gone.status(), 404);
    // An empty order id is read, and is no integer.
    let order = store.raw(reqwest::Method::GET, "/store/order/").send().await.unwrap();
    assert_eq!(order.status(), 400);
    // `/user/` has no PATCH, and is not `/user`: 404 rather than a 405
    // that would speak of `/user`'s methods.
    let patch = store.raw(reqwest::Method::PATCH, "/user/").send().await.unwrap();
    assert_eq!(patch.status(), 404);
    assert!(patch.headers().get("allow").is_none());
    // A method `/user` has keeps it, as dropshot routes it.
    let posted = store
        .raw(reqwest::Method::POST, "/user/")
        .json(&json!({"username": "again"}))
        .send()
        .await
        .unwrap();
    assert_eq!(posted.status(), 200);
    store.stop().await;
}
