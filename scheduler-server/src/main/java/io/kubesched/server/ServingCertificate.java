package io.kubesched.server;

import io.kubesched.api.ConfigurationException;
import java.io.IOException;
import java.io.Reader;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.jspecify.annotations.Nullable;

/**
 * The serving certificate of the HTTPS endpoints: the chain and key of {@code --tls-cert-file} and {@code
 * --tls-private-key-file}, or, when neither is given, a self-signed one made at start and held only in memory,
 * as kube-scheduler makes it (a CA and a serving certificate it signed, RSA 2048, valid from an hour ago for a
 * year; the serving one for {@code localhost}, {@code 127.0.0.1} and this host's name). Immutable.
 *
 * <p>BouncyCastle reads the PEM files (the JDK reads no PKCS#1 or SEC1 key) and signs the self-signed
 * certificates (the JDK has no public API to make one); the keys and signatures themselves are the JDK's
 * providers', BouncyCastle's provider is not registered.
 *
 * @param key the private key
 * @param chain the serving certificate first, then any intermediates (with a self-signed one: its CA)
 */
record ServingCertificate(PrivateKey key, List<X509Certificate> chain) {

  /** kube's lifetime of a self-signed serving certificate. */
  static final Duration SELF_SIGNED_LIFETIME = Duration.ofDays(365);

  ServingCertificate {
    Objects.requireNonNull(key, "key");
    chain = List.copyOf(chain);
    if (chain.isEmpty()) {
      throw new IllegalArgumentException("chain must hold the serving certificate");
    }
  }

  /**
   * @return the files' certificate when both are given; else a self-signed one
   * @throws ConfigurationException naming the flag and the file: one of the two given without the other, a file
   *     missing or unreadable, no certificate or no key in it, an encrypted key, a key that is not the
   *     certificate's
   */
  static ServingCertificate of(ServingOptions serving) {
    var certFile = serving.tlsCertFile();
    var keyFile = serving.tlsPrivateKeyFile();
    if (certFile.isPresent() != keyFile.isPresent()) {
      throw new ConfigurationException(
          certFile.isPresent()
              ? "--tls-cert-file " + certFile.get() + " is given without --tls-private-key-file"
              : "--tls-private-key-file " + keyFile.orElseThrow() + " is given without --tls-cert-file");
    }
    if (certFile.isEmpty()) {
      return selfSigned("localhost", Instant.now());
    }
    return read(certFile.get(), keyFile.orElseThrow());
  }

  /**
   * @return the certificate chain of {@code certFile} and the key of {@code keyFile} (PKCS#8, PKCS#1 RSA or SEC1
   *     EC), PEM
   * @throws ConfigurationException naming the flag and the file, if either cannot be used
   */
  static ServingCertificate read(Path certFile, Path keyFile) {
    var chain = new ArrayList<X509Certificate>();
    for (var block : pemObjects("--tls-cert-file", certFile)) {
      if (block instanceof X509CertificateHolder holder) {
        try {
          chain.add(new JcaX509CertificateConverter().getCertificate(holder));
        } catch (GeneralSecurityException e) {
          throw new ConfigurationException("--tls-cert-file " + certFile + ": a certificate cannot be read: " + e);
        }
      }
    }
    if (chain.isEmpty()) {
      throw new ConfigurationException("--tls-cert-file " + certFile + " holds no PEM CERTIFICATE");
    }
    @Nullable PrivateKey key = null;
    for (var block : pemObjects("--tls-private-key-file", keyFile)) {
      try {
        if (block instanceof PEMKeyPair pair) { // PKCS#1 RSA, SEC1 EC
          key = new JcaPEMKeyConverter().getPrivateKey(pair.getPrivateKeyInfo()); // SEC1 may omit the public key
        } else if (block instanceof PrivateKeyInfo info) { // PKCS#8
          key = new JcaPEMKeyConverter().getPrivateKey(info);
        } else if (block instanceof PKCS8EncryptedPrivateKeyInfo) {
          throw new ConfigurationException(
              "--tls-private-key-file " + keyFile + " holds an encrypted key; give it unencrypted");
        } else if (block instanceof X9ECParameters || block instanceof ASN1ObjectIdentifier) {
          continue; // the EC PARAMETERS block openssl writes before an EC key
        }
      } catch (IOException e) {
        throw new ConfigurationException("--tls-private-key-file " + keyFile + ": the key cannot be read: " + e);
      }
      if (key != null) {
        break;
      }
    }
    if (key == null) {
      throw new ConfigurationException(
          "--tls-private-key-file " + keyFile + " holds no PEM PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY");
    }
    if (!matches(key, chain.get(0).getPublicKey())) {
      throw new ConfigurationException(
          "--tls-private-key-file " + keyFile + " is not the key of the certificate in --tls-cert-file " + certFile);
    }
    return new ServingCertificate(key, chain);
  }

  /**
   * As kube-scheduler's: a CA {@code HOST-ca@SECONDS} and a serving certificate {@code HOST@SECONDS} it signed,
   * for {@code host}, {@code 127.0.0.1} and this machine's host name, valid from an hour before {@code now}
   * for {@link #SELF_SIGNED_LIFETIME}.
   */
  static ServingCertificate selfSigned(String host, Instant now) {
    try {
      var generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      var caKeys = generator.generateKeyPair();
      var servingKeys = generator.generateKeyPair();
      var from = now.minus(Duration.ofHours(1));
      var until = from.plus(SELF_SIGNED_LIFETIME);
      var ca = new X500Name("CN=" + host + "-ca@" + now.getEpochSecond());
      var caBuilder =
          new JcaX509v3CertificateBuilder(
                  ca, serial(), Date.from(from), Date.from(until), ca, caKeys.getPublic())
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
              .addExtension(
                  Extension.keyUsage,
                  true,
                  new KeyUsage(KeyUsage.keyEncipherment | KeyUsage.digitalSignature | KeyUsage.keyCertSign));
      var caCert = sign(caBuilder.build(signer(caKeys)));
      var names = new ArrayList<GeneralName>();
      names.add(new GeneralName(GeneralName.dNSName, host));
      names.add(new GeneralName(GeneralName.iPAddress, "127.0.0.1"));
      hostName().filter(name -> !name.equals(host)).ifPresent(name -> names.add(new GeneralName(GeneralName.dNSName, name)));
      var servingBuilder =
          new JcaX509v3CertificateBuilder(
                  ca,
                  serial(),
                  Date.from(from),
                  Date.from(until),
                  new X500Name("CN=" + host + "@" + now.getEpochSecond()),
                  servingKeys.getPublic())
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
              .addExtension(
                  Extension.keyUsage, true, new KeyUsage(KeyUsage.keyEncipherment | KeyUsage.digitalSignature))
              .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
              .addExtension(
                  Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new)));
      var servingCert = sign(servingBuilder.build(signer(caKeys)));
      return new ServingCertificate(servingKeys.getPrivate(), List.of(servingCert, caCert));
    } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
      throw new IllegalStateException("cannot make a self-signed serving certificate: " + e, e);
    }
  }

  /**
   * @param password the password of the key entry
   * @return a PKCS#12 key store holding the key and chain under the alias {@code serving}
   */
  KeyStore keyStore(char[] password) {
    try {
      var store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("serving", key, password, chain.toArray(X509Certificate[]::new));
      return store;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot hold the serving certificate in a key store: " + e, e);
    }
  }

  private static List<Object> pemObjects(String flag, Path file) {
    if (!Files.isRegularFile(file)) {
      throw new ConfigurationException(flag + " " + file + " does not exist or is not a file");
    }
    var objects = new ArrayList<Object>();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
        var parser = new PEMParser(reader)) {
      for (Object next = parser.readObject(); next != null; next = parser.readObject()) {
        objects.add(next);
      }
    } catch (IOException | RuntimeException e) {
      throw new ConfigurationException(flag + " " + file + " cannot be read as PEM: " + e.getMessage());
    }
    return objects;
  }

  /** Whether {@code key} signs what {@code publicKey} verifies: the key is the certificate's. */
  private static boolean matches(PrivateKey key, PublicKey publicKey) {
    if (!key.getAlgorithm().equals(publicKey.getAlgorithm())) {
      return false;
    }
    var algorithm =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          default -> key.getAlgorithm(); // Ed25519, Ed448: the algorithm is the signature
        };
    try {
      var data = "kubesched serving key check".getBytes(StandardCharsets.US_ASCII);
      var signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(data);
      var signature = signer.sign();
      var verifier = Signature.getInstance(algorithm);
      verifier.initVerify(publicKey);
      verifier.update(data);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private static org.bouncycastle.operator.ContentSigner signer(KeyPair keys) throws OperatorCreationException {
    return new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate());
  }

  private static X509Certificate sign(X509CertificateHolder holder) throws GeneralSecurityException {
    return new JcaX509CertificateConverter().getCertificate(holder);
  }

  private static BigInteger serial() {
    return new BigInteger(63, new SecureRandom()).add(BigInteger.ONE);
  }

  private static Optional<String> hostName() {
    try {
      var name = InetAddress.getLocalHost().getHostName();
      return name.isBlank() ? Optional.empty() : Optional.of(name);
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
  }
}
