package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServingCertificateTest {

  @TempDir Path dir;

  @Test
  void the_self_signed_one_is_kubes_a_ca_and_a_serving_certificate_for_localhost_and_127_0_0_1() throws Exception {
    var now = Instant.parse("2026-12-02T07:00:00Z");
    var certificate = ServingCertificate.selfSigned("localhost", now);
    assertEquals(2, certificate.chain().size());
    var serving = certificate.chain().get(0);
    var ca = certificate.chain().get(1);
    assertEquals("CN=localhost@" + now.getEpochSecond(), serving.getSubjectX500Principal().getName());
    assertEquals("CN=localhost-ca@" + now.getEpochSecond(), ca.getSubjectX500Principal().getName());
    serving.verify(ca.getPublicKey());
    assertEquals(now.minus(Duration.ofHours(1)), serving.getNotBefore().toInstant());
    assertEquals(now.minus(Duration.ofHours(1)).plus(Duration.ofDays(365)), serving.getNotAfter().toInstant());
    var names = serving.getSubjectAlternativeNames().stream().map(name -> name.get(1).toString()).toList();
    assertTrue(names.containsAll(List.of("localhost", "127.0.0.1")), names::toString);
    assertTrue(names.contains(InetAddress.getLocalHost().getHostName()), names::toString);
    assertEquals(List.of("1.3.6.1.5.5.7.3.1"), serving.getExtendedKeyUsage(), "server authentication");
    assertEquals(-1, serving.getBasicConstraints(), "not a CA");
    assertTrue(ca.getBasicConstraints() >= 0, "a CA");
    assertEquals("RSA", certificate.key().getAlgorithm());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"RSA", "EC"})
  void a_pem_chain_and_a_pkcs8_key_are_read(String algorithm) throws Exception {
    var keys = keys(algorithm);
    var cert = certificate(keys, algorithm);
    var certFile = write("tls.crt", pem(cert) + pem(ServingCertificate.selfSigned("ca", Instant.now()).chain().get(1)));
    var keyFile = write("tls.key", pkcs8(keys));
    var read = ServingCertificate.of(options(Optional.of(certFile), Optional.of(keyFile)));
    assertEquals(2, read.chain().size(), "the chain, intermediates included");
    assertEquals(cert, read.chain().get(0));
    assertArrayEquals(keys.getPrivate().getEncoded(), read.key().getEncoded());
  }

  /** Keys as openssl writes them (src/test/resources/tls/README.md). */
  @ParameterizedTest(name = "{1}")
  @CsvSource({
    "rsa.crt, rsa-pkcs1.key, RSA",
    "ec.crt,  ec-sec1.key,   EC",
    "ec.crt,  ec-pkcs8.key,  EC",
  })
  void openssls_pkcs1_sec1_and_pkcs8_keys_are_read(String cert, String key, String algorithm) {
    var fixtures = Path.of("src/test/resources/tls");
    var read = ServingCertificate.of(options(Optional.of(fixtures.resolve(cert)), Optional.of(fixtures.resolve(key))));
    assertEquals(algorithm, read.key().getAlgorithm());
    assertEquals(1, read.chain().size());
  }

  @Test
  void a_sec1_key_is_not_the_certificate_of_another_ec_key() {
    var fixtures = Path.of("src/test/resources/tls");
    var e =
        assertThrows(
            ConfigurationException.class,
            () -> ServingCertificate.of(options(Optional.of(fixtures.resolve("rsa.crt")), Optional.of(fixtures.resolve("ec-sec1.key")))));
    assertTrue(e.getMessage().contains("is not the key of the certificate"), e.getMessage());
  }

  @Test
  void a_missing_file_or_one_of_the_two_alone_is_refused_naming_the_flag_and_the_file() throws Exception {
    var missing = dir.resolve("missing.crt");
    var keyFile = write("tls.key", pkcs8(keys("RSA")));
    var e = assertThrows(ConfigurationException.class, () -> ServingCertificate.of(options(Optional.of(missing), Optional.of(keyFile))));
    assertEquals("--tls-cert-file " + missing + " does not exist or is not a file", e.getMessage());
    e = assertThrows(ConfigurationException.class, () -> ServingCertificate.of(options(Optional.empty(), Optional.of(keyFile))));
    assertEquals("--tls-private-key-file " + keyFile + " is given without --tls-cert-file", e.getMessage());
  }

  @Test
  void a_key_that_is_not_the_certificates_is_refused_naming_both_files() throws Exception {
    var certFile = write("tls.crt", pem(certificate(keys("RSA"), "RSA")));
    var keyFile = write("other.key", pkcs8(keys("RSA")));
    var e = assertThrows(ConfigurationException.class, () -> ServingCertificate.of(options(Optional.of(certFile), Optional.of(keyFile))));
    assertEquals(
        "--tls-private-key-file " + keyFile + " is not the key of the certificate in --tls-cert-file " + certFile,
        e.getMessage());
  }

  @Test
  void files_without_what_they_should_hold_are_refused_in_one_line() throws Exception {
    var keys = keys("RSA");
    var keyFile = write("tls.key", pkcs8(keys));
    var notPem = write("tls.crt", "hello\n");
    var e = assertThrows(ConfigurationException.class, () -> ServingCertificate.of(options(Optional.of(notPem), Optional.of(keyFile))));
    assertEquals("--tls-cert-file " + notPem + " holds no PEM CERTIFICATE", e.getMessage());
    var certFile = write("good.crt", pem(certificate(keys, "RSA")));
    var e2 = assertThrows(ConfigurationException.class, () -> ServingCertificate.of(options(Optional.of(certFile), Optional.of(certFile))));
    assertTrue(e2.getMessage().startsWith("--tls-private-key-file " + certFile + " holds no PEM PRIVATE KEY"), e2.getMessage());
    var broken = write("broken.crt", "-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n");
    var e3 = assertThrows(ConfigurationException.class, () -> ServingCertificate.of(options(Optional.of(broken), Optional.of(keyFile))));
    assertTrue(e3.getMessage().startsWith("--tls-cert-file " + broken), e3.getMessage());
    assertEquals(1, e3.getMessage().lines().count(), e3.getMessage());
  }

  private static ServingOptions options(Optional<Path> cert, Optional<Path> key) {
    return new ServingOptions(
        0, InetAddress.getLoopbackAddress(), cert, key, Optional.empty(), Optional.empty(), List.of());
  }

  private Path write(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text);
  }

  private static KeyPair keys(String algorithm) throws Exception {
    var generator = KeyPairGenerator.getInstance(algorithm);
    if (algorithm.equals("EC")) {
      generator.initialize(new ECGenParameterSpec("secp256r1"));
    } else {
      generator.initialize(2048);
    }
    return generator.generateKeyPair();
  }

  private static X509Certificate certificate(KeyPair keys, String algorithm) throws Exception {
    var name = new X500Name("CN=test");
    var now = Instant.now();
    var builder =
        new JcaX509v3CertificateBuilder(
            name, BigInteger.TWO, Date.from(now), Date.from(now.plus(Duration.ofDays(1))), name, keys.getPublic());
    var signer =
        new JcaContentSignerBuilder(algorithm.equals("EC") ? "SHA256withECDSA" : "SHA256withRSA")
            .build(keys.getPrivate());
    return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
  }

  private static String pem(X509Certificate certificate) throws Exception {
    return block("CERTIFICATE", certificate.getEncoded());
  }

  /** PKCS#8, written without BouncyCastle: the JDK's encoding of the key. */
  private static String pkcs8(KeyPair keys) {
    return block("PRIVATE KEY", keys.getPrivate().getEncoded());
  }

  private static String block(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }
}
